import { Autocomplete, Chip, TextField } from '@mui/material';
import { useInput, useTranslate } from 'react-admin';

export interface ChipsInputProps {
  /** The form field: a list of texts. */
  source: string;
  /** Translation key (or text) of the label. */
  label: string;
  /** Translation key of a hint under the input, shown while there is no error. */
  helperText?: string;
  isRequired?: boolean;
  /** At most this many values are kept. */
  max?: number;
  /** Typed or pasted text is split on these into several values (e.g. addresses pasted at once). */
  separator?: RegExp;
  /** Shows the values without letting them change. */
  readOnly?: boolean;
}

/**
 * A list of free texts as chips, in a react-admin form: type one and press Enter (or leave the
 * input), remove one with its chip. Values are trimmed and blank ones dropped; the form's rules
 * (a zod schema) judge them, and the field's error shows under the input.
 */
export function ChipsInput({ source, label, helperText, isRequired, max, separator, readOnly }: ChipsInputProps) {
  const translate = useTranslate();
  const { field, fieldState } = useInput({ source, isRequired });
  const values = Array.isArray(field.value) ? (field.value as string[]) : [];
  const error = fieldState.error?.message;
  const tidy = (next: readonly string[]) => {
    const pieces = next
      .flatMap((value) => (separator ? value.split(separator) : [value]))
      .map((value) => value.trim())
      .filter(Boolean);
    const unique = [...new Set(pieces)];
    return max === undefined ? unique : unique.slice(0, max);
  };
  return (
    <Autocomplete
      multiple
      freeSolo
      autoSelect
      readOnly={readOnly}
      options={[]}
      value={values}
      onChange={(_, next) => field.onChange(tidy(next as string[]))}
      renderValue={(selected, getItemProps) =>
        selected.map((option, index) => {
          const { key, ...itemProps } = getItemProps({ index });
          return <Chip key={key} size="small" label={option} {...itemProps} />;
        })
      }
      renderInput={(params) => (
        <TextField
          {...params}
          label={translate(label, { _: label })}
          required={isRequired}
          error={Boolean(error)}
          helperText={error ? translate(error, { _: error }) : helperText ? translate(helperText, { _: helperText }) : undefined}
          onBlur={field.onBlur}
        />
      )}
      sx={{ width: '100%', mb: 1 }}
    />
  );
}
