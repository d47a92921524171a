import { MenuItem, TextField } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { Choice } from '../../src/framework/types';

/**
 * Several values of a sub-list's filter (statuses, check names), as one select. Choices are
 * translation keys (statuses) unless `translateChoice` is false: names from records (checks,
 * columns) are shown exactly as written.
 */
export function MultiSelect({
  label,
  value,
  choices,
  onChange,
  translateChoice = true,
}: {
  label: string;
  value: string[];
  choices: readonly Choice[];
  onChange: (value: string[]) => void;
  translateChoice?: boolean;
}) {
  const translate = useTranslate();
  const text = (choice: Choice) => (translateChoice ? translate(choice.name, { _: choice.name }) : choice.name);
  const nameOf = (id: string) => {
    const choice = choices.find((candidate) => String(candidate.id) === id);
    return choice ? text(choice) : id;
  };
  return (
    <TextField
      select
      size="small"
      label={label}
      value={value}
      onChange={(event) => {
        const next = event.target.value as unknown;
        onChange(typeof next === 'string' ? next.split(',') : (next as string[]));
      }}
      slotProps={{ select: { multiple: true, renderValue: (selected) => (selected as string[]).map(nameOf).join(', ') } }}
      sx={{ minWidth: 180 }}
    >
      {choices.map((choice) => (
        <MenuItem key={String(choice.id)} value={String(choice.id)}>
          {text(choice)}
        </MenuItem>
      ))}
    </TextField>
  );
}

/** A day of a sub-list's filter (`YYYY-MM-DD`), empty for none. */
export function DateFilter({ label, value, onChange }: { label: string; value: string; onChange: (value: string) => void }) {
  return (
    <TextField
      type="date"
      size="small"
      label={label}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      slotProps={{ inputLabel: { shrink: true } }}
    />
  );
}
