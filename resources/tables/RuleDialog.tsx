import { Autocomplete, Box, Chip, TextField as MuiTextField } from '@mui/material';
import { useEffect, useMemo, useRef } from 'react';
import { useFormContext, useWatch, type FieldValues, type Resolver } from 'react-hook-form';
import { BooleanInput, NumberInput, SelectInput, TextInput, useInput, useTranslate } from 'react-admin';
import {
  FUNCTION_TYPE_OF,
  IN_SET_MAX,
  QUALITY_FUNCTIONS,
  QUALITY_SEVERITIES,
  SAMPLE_PERCENT_MAX,
  SAMPLE_PERCENT_MIN,
  type QualityRuleBody,
} from '../../common/schemas/quality';
import { FormDialog } from '../../src/framework/form/FormDialog';
import { namedProblem, useColumns } from './hooks';
import {
  AGE_UNITS,
  canSample,
  checkRule,
  formFieldOf,
  hasTolerance,
  needsColumn,
  NEW_RULE,
  RULE_FORM_FIELDS,
  ruleFormValues,
  suggestedNameOf,
  type RuleFormValues,
} from './ruleForm';
import type { QualityRule } from './types';

const resolver: Resolver<FieldValues> = async (values) => {
  const checked = checkRule(values as RuleFormValues);
  return checked.ok ? { values: checked.body as FieldValues, errors: {} } : { values: {}, errors: checked.errors };
};

/** An in_set rule's values as chips: type one and press Enter. */
function ValuesInput() {
  const translate = useTranslate();
  const { field, fieldState } = useInput({ source: 'values', isRequired: true });
  const values = (field.value as string[] | undefined) ?? [];
  const error = fieldState.error?.message;
  return (
    <Autocomplete
      multiple
      freeSolo
      options={[]}
      value={values}
      onChange={(_, next) =>
        field.onChange(
          (next as string[])
            .map((value) => value.trim())
            .filter(Boolean)
            .slice(0, IN_SET_MAX),
        )
      }
      renderValue={(selected, getItemProps) =>
        selected.map((option, index) => {
          const { key, ...itemProps } = getItemProps({ index });
          return <Chip key={key} size="small" label={option} {...itemProps} />;
        })
      }
      renderInput={(params) => (
        <MuiTextField
          {...params}
          label={translate('resources.tables.quality.params.values')}
          required
          error={Boolean(error)}
          helperText={error ?? translate('resources.tables.quality.params.values_help')}
          onBlur={field.onBlur}
        />
      )}
      sx={{ width: '100%', mb: 1 }}
    />
  );
}

/** The inputs of the chosen kind's params. */
function ParamsInputs() {
  const translate = useTranslate();
  const fn = useWatch({ name: 'functionName' }) as RuleFormValues['functionName'];
  const label = (key: string) => `resources.tables.quality.params.${key}`;
  switch (fn) {
    case 'value_between':
      return (
        <Box sx={{ display: 'flex', gap: 2, width: '100%' }}>
          <TextInput source="min" label={label('min')} helperText={label('bound_help')} />
          <TextInput source="max" label={label('max')} helperText={false} />
        </Box>
      );
    case 'length_between':
    case 'row_count_between':
      return (
        <Box sx={{ display: 'flex', gap: 2, width: '100%' }}>
          <NumberInput source="min" label={label('min')} min={0} step={1} helperText={label('whole_help')} />
          <NumberInput source="max" label={label('max')} min={0} step={1} helperText={false} />
        </Box>
      );
    case 'regex_match':
      return (
        <TextInput
          source="pattern"
          label={label('pattern')}
          helperText={label('pattern_help')}
          isRequired
          fullWidth
          sx={{ '& input': { fontFamily: 'monospace' } }}
        />
      );
    case 'in_set':
      return <ValuesInput />;
    case 'freshness':
      return (
        <Box sx={{ display: 'flex', gap: 2, width: '100%' }}>
          <NumberInput source="maxAge" label={label('max_age')} min={1} step={1} isRequired helperText={label('max_age_help')} />
          <SelectInput
            source="maxAgeUnit"
            label={label('unit')}
            helperText={false}
            choices={Object.keys(AGE_UNITS).map((unit) => ({ id: unit, name: translate(`resources.tables.quality.units.${unit}`) }))}
          />
        </Box>
      );
    case 'custom_sql':
      return (
        <TextInput
          source="sql"
          label={label('sql')}
          helperText={label('sql_help')}
          isRequired
          multiline
          minRows={5}
          fullWidth
          sx={{ '& textarea': { fontFamily: 'monospace', fontSize: '0.85rem' } }}
        />
      );
    default:
      return null;
  }
}

function ColumnInput({ tableId }: { tableId: string }) {
  const fn = useWatch({ name: 'functionName' }) as RuleFormValues['functionName'];
  const current = useWatch({ name: 'columnName' }) as string | null;
  const columns = useColumns(tableId);
  const choices = useMemo(
    () =>
      (columns.data ?? [])
        .filter((column) => column.present || column.name === current)
        .map((column) => ({ id: column.name, name: `${column.name} (${column.dataType})` })),
    [columns.data, current],
  );
  if (!needsColumn(fn)) return null;
  return (
    <SelectInput
      source="columnName"
      label="resources.tables.quality.column"
      choices={choices}
      translateChoice={false}
      isPending={columns.isPending}
      isRequired
      helperText={false}
    />
  );
}

/**
 * The name input, filled with the name the check and column suggest ("amount not null") for as
 * long as the name is blank or still the suggestion: a name the user typed is theirs and stays.
 */
function NameInput() {
  const { setValue, getValues } = useFormContext();
  const watched = useWatch({ name: ['functionName', 'columnName', 'min', 'max', 'pattern', 'values', 'maxAge', 'maxAgeUnit'] });
  // The name the form would have suggested for the values it started with: an existing rule named so still follows.
  const suggested = useRef<string | null>(null);
  suggested.current ??= suggestedNameOf(getValues() as RuleFormValues);
  useEffect(() => {
    const next = suggestedNameOf(getValues() as RuleFormValues);
    const name = String(getValues('name') ?? '').trim();
    const ownName = name !== '' && name !== suggested.current;
    suggested.current = next;
    if (!ownName && next && next !== name) setValue('name', next, { shouldDirty: true, shouldValidate: false });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the watched values are what the suggestion follows
  }, [JSON.stringify(watched), getValues, setValue]);
  return <TextInput source="name" label="resources.tables.quality.name" isRequired helperText={false} />;
}

function ToleranceInput() {
  const fn = useWatch({ name: 'functionName' }) as RuleFormValues['functionName'];
  if (!hasTolerance(fn)) return null;
  return (
    <NumberInput
      source="tolerancePercent"
      label="resources.tables.quality.tolerance"
      helperText="resources.tables.quality.tolerance_help"
      min={0}
      max={100}
      step={0.1}
    />
  );
}

/** For kinds judging rows one by one: run on a sample of the table's pages, as an estimate; empty for every row. */
function SampleInput() {
  const fn = useWatch({ name: 'functionName' }) as RuleFormValues['functionName'];
  if (!canSample(fn)) return null;
  return (
    <NumberInput
      source="samplePercent"
      label="resources.tables.quality.sample_percent"
      helperText="resources.tables.quality.sample_percent_help"
      min={SAMPLE_PERCENT_MIN}
      max={SAMPLE_PERCENT_MAX}
      step={1}
    />
  );
}

export interface RuleDialogProps {
  tableId: string;
  /** The rule to edit; null for a new one. */
  rule: QualityRule | null;
  onSave: (body: QualityRuleBody) => Promise<string | null>;
  onClose: () => void;
}

/**
 * A data-quality rule, new or edited: its kind, the column for column kinds, the kind's params,
 * severity and (for kinds that judge rows) a tolerance in percent. The body is checked by the
 * shared rules before it is sent; a server refusal that names a field shows on it too.
 */
export function RuleDialog({ tableId, rule, onSave, onClose }: RuleDialogProps) {
  const translate = useTranslate();
  const defaults = useMemo(() => (rule ? ruleFormValues(rule) : NEW_RULE), [rule]);
  const kinds = QUALITY_FUNCTIONS.map((fn) => ({
    id: fn,
    name: translate(`resources.tables.functions.${fn}`, { _: fn }),
    type: FUNCTION_TYPE_OF[fn],
  }));
  const submit = async (body: FieldValues) => {
    const message = await onSave(body as QualityRuleBody);
    if (message === null) return null;
    // A body field the server names (`params.min`) is said by the input that holds it (min).
    const named = namedProblem(message);
    const field = named ? formFieldOf(named.field) : undefined;
    return field && named ? `${field}: ${named.message}` : message;
  };
  const title = translate(rule ? 'resources.tables.quality.edit_title' : 'resources.tables.quality.add_title', { name: rule?.name ?? '' });
  return (
    // The rule's own values as the record: the table in context is not what this form edits.
    <FormDialog
      title={title}
      record={defaults}
      resolver={resolver}
      onSubmit={submit}
      onClose={onClose}
      problemFields={RULE_FORM_FIELDS}
      contentSx={{ display: 'flex', flexDirection: 'column', alignItems: 'stretch' }}
    >
      <NameInput />
      <SelectInput source="functionName" label="resources.tables.quality.kind" choices={kinds} isRequired helperText={false} />
      <ColumnInput tableId={tableId} />
      <ParamsInputs />
      <SelectInput
        source="severity"
        label="resources.tables.quality.severity"
        helperText="resources.tables.quality.severity_help"
        choices={QUALITY_SEVERITIES.map((severity) => ({ id: severity, name: translate(`resources.tables.severities.${severity}`) }))}
      />
      <ToleranceInput />
      <SampleInput />
      <BooleanInput source="isActive" label="resources.tables.quality.active" helperText={false} />
    </FormDialog>
  );
}
