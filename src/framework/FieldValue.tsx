import { Box, Chip, Stack, Typography } from '@mui/material';
import {
  BooleanField,
  DateField,
  EmailField,
  NumberField,
  ReferenceField,
  TextField,
  UrlField,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import type { ReactNode } from 'react';
import { useServerText } from '../../providers/i18n/useServerText';
import type { FieldDeclaration } from './types';
import { useChoices } from './useChoices';

export interface FieldValueProps {
  field: FieldDeclaration;
  /** Read by react-admin's show layout and DataTable for the label. */
  source?: string;
  label?: string;
  /** In a list cell: long values on one line. */
  compact?: boolean;
}

function ChoiceName({ field, value, chip }: { field: FieldDeclaration; value: unknown; chip: boolean }) {
  const translate = useTranslate();
  const { choices } = useChoices(field.choices);
  if (value === undefined || value === null || value === '') return null;
  const choice = choices?.find((candidate) => String(candidate.id) === String(value));
  const text = choice ? translate(choice.name, { _: choice.name }) : String(value);
  if (!chip) return <>{text}</>;
  const color = field.colors?.[String(value)] ?? 'default';
  return <Chip size="small" label={text} color={color} variant={color === 'default' ? 'outlined' : 'filled'} />;
}

/** A text the server wrote, in the reader's language (see FieldDeclaration.serverText). */
function ServerTextValue({ field, sx }: { field: FieldDeclaration; sx?: object }) {
  const record = useRecordContext();
  const serverText = useServerText();
  const value = record?.[field.source];
  const text = value === undefined || value === null || value === '' ? '—' : serverText(String(value));
  return (
    <Typography component="span" variant="body2" sx={sx}>
      {text}
    </Typography>
  );
}

function Chips({ items }: { items: ReactNode[] }) {
  return (
    <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 0.5 }}>
      {items.map((item, index) => (
        <Chip key={index} size="small" label={item} />
      ))}
    </Stack>
  );
}

function ChipsValue({ field }: { field: FieldDeclaration }) {
  const record = useRecordContext();
  const value = record?.[field.source];
  if (!Array.isArray(value)) return null;
  const text = field.chipText ?? 'name';
  return (
    <Chips
      items={value.map((item) => (item && typeof item === 'object' ? String((item as Record<string, unknown>)[text] ?? '') : String(item)))}
    />
  );
}

function MultiChoiceValue({ field }: { field: FieldDeclaration }) {
  const record = useRecordContext();
  const translate = useTranslate();
  const { choices } = useChoices(field.choices);
  const value = record?.[field.source];
  if (!Array.isArray(value)) return null;
  return (
    <Chips
      items={value.map((id) => {
        const choice = choices?.find((candidate) => String(candidate.id) === String(id));
        return choice ? translate(choice.name, { _: choice.name }) : String(id);
      })}
    />
  );
}

function JsonValue({ field, compact }: { field: FieldDeclaration; compact?: boolean }) {
  const record = useRecordContext();
  const value = record?.[field.source];
  if (value === undefined || value === null) return null;
  const text = JSON.stringify(value, null, compact ? undefined : 2);
  return (
    <Box
      component="pre"
      sx={{
        m: 0,
        fontFamily: 'monospace',
        fontSize: '0.8rem',
        whiteSpace: compact ? 'nowrap' : 'pre-wrap',
        overflow: 'hidden',
        textOverflow: 'ellipsis',
        maxWidth: compact ? 320 : 'none',
      }}
    >
      {text}
    </Box>
  );
}

function SelectValue({ field, chip }: { field: FieldDeclaration; chip: boolean }) {
  const record = useRecordContext();
  return <ChoiceName field={field} value={record?.[field.source]} chip={chip} />;
}

function Rendered({ field }: { field: FieldDeclaration }) {
  const record = useRecordContext();
  return record ? <>{field.render!(record)}</> : null;
}

/** One declared field of the current record, read-only: a list cell or a line of the show view. */
export function FieldValue({ field, compact }: FieldValueProps) {
  const source = field.source;
  if (field.render) return <Rendered field={field} />;
  switch (field.type) {
    case 'email':
      // In a list the row opens the record: a mailto link there would open the mail program instead.
      if (compact) return <TextField source={source} emptyText="—" />;
      return <EmailField source={source} emptyText="—" onClick={(event) => event.stopPropagation()} />;
    case 'url':
      return <UrlField source={source} emptyText="—" onClick={(event) => event.stopPropagation()} />;
    case 'number':
      return <NumberField source={source} emptyText="—" />;
    case 'boolean':
      return <BooleanField source={source} />;
    case 'date':
      return <DateField source={source} emptyText="—" />;
    case 'datetime':
      return <DateField source={source} showTime emptyText="—" />;
    case 'select':
      return <SelectValue field={field} chip={false} />;
    case 'status':
      return <SelectValue field={field} chip />;
    case 'multiselect':
      return <MultiChoiceValue field={field} />;
    case 'chips':
      return <ChipsValue field={field} />;
    case 'json':
      return <JsonValue field={field} compact={compact} />;
    case 'reference':
      return (
        <ReferenceField source={source} reference={field.reference!} link="show" emptyText="—">
          {field.referenceText ? <TextField source={field.referenceText} /> : undefined}
        </ReferenceField>
      );
    case 'longtext': {
      const sx = compact
        ? { display: 'block', maxWidth: 320, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }
        : { whiteSpace: 'pre-wrap' };
      return field.serverText ? <ServerTextValue field={field} sx={sx} /> : <TextField source={source} emptyText="—" sx={sx} />;
    }
    case 'text':
    default:
      return field.serverText ? <ServerTextValue field={field} /> : <TextField source={source} emptyText="—" />;
  }
}
