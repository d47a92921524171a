import { Box, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useRecordContext, useTranslate } from 'react-admin';

/** One changed field: its value before and after, `undefined` where that side says nothing. */
export interface ChangedField {
  field: string;
  before: unknown;
  after: unknown;
  hasBefore: boolean;
  hasAfter: boolean;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/**
 * The rows of an entry's changes. The house rule is `{ after }` for a creation, `{ before }`
 * for a deletion and `{ before, after }` (changed fields only) for an update; an entry of
 * another shape (a session ended: `{ userId, email, endReason }`) is what it records, shown as
 * the "after" side. A field that reads the same on both sides did not change and is left out.
 */
export function changedFields(changes: unknown): ChangedField[] {
  if (!isObject(changes)) return [];
  const ruled = 'before' in changes || 'after' in changes;
  const before = ruled && isObject(changes.before) ? changes.before : {};
  const after = ruled ? (isObject(changes.after) ? changes.after : {}) : changes;
  const names = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return names
    .map((field) => ({ field, before: before[field], after: after[field], hasBefore: field in before, hasAfter: field in after }))
    .filter((change) => !(change.hasBefore && change.hasAfter && same(change.before, change.after)));
}

function Value({ present, value }: { present: boolean; value: unknown }) {
  const translate = useTranslate();
  if (!present)
    return (
      <Typography component="span" color="text.disabled">
        —
      </Typography>
    );
  if (value === null || value === undefined || value === '') {
    return (
      <Typography component="span" variant="body2" color="text.secondary" sx={{ fontStyle: 'italic' }}>
        {translate('resources.audits.changes.empty')}
      </Typography>
    );
  }
  const text = typeof value === 'object' ? JSON.stringify(value, null, 2) : String(value);
  return (
    <Box
      component="span"
      sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', fontFamily: typeof value === 'object' ? 'monospace' : undefined }}
    >
      {text}
    </Box>
  );
}

/** The entry's changes as a table: one row per changed field, its old and its new value. */
export function ChangesDiff() {
  const record = useRecordContext();
  const translate = useTranslate();
  if (!record) return null;
  const rows = changedFields(record.changes);
  if (rows.length === 0) {
    return <Typography variant="body2">{translate('resources.audits.changes.none')}</Typography>;
  }
  return (
    <Table size="small" aria-label={translate('resources.audits.fields.changes')} sx={{ maxWidth: 960 }}>
      <TableHead>
        <TableRow>
          <TableCell>{translate('resources.audits.changes.field')}</TableCell>
          <TableCell>{translate('resources.audits.changes.before')}</TableCell>
          <TableCell>{translate('resources.audits.changes.after')}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {rows.map((row) => (
          <TableRow key={row.field} data-field={row.field}>
            <TableCell component="th" scope="row" sx={{ fontFamily: 'monospace', verticalAlign: 'top' }}>
              {row.field}
            </TableCell>
            <TableCell sx={{ verticalAlign: 'top' }}>
              <Value present={row.hasBefore} value={row.before} />
            </TableCell>
            <TableCell sx={{ verticalAlign: 'top' }}>
              <Value present={row.hasAfter} value={row.after} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
