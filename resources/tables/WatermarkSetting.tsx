import { Box, MenuItem, TextField, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { Spinner } from '../../src/framework/Spinner';
import { useWatermarkColumn } from './hooks';
import type { DataTable } from './types';

const NONE = '';

/**
 * How the table's row rules read it: every row each run, or (with a watermark column, a
 * timestamp or an id that only grows) only the rows past what each rule's last result covered.
 * Those who may edit the table choose the column; others read which it is.
 */
export function WatermarkSetting({ table, editable }: { table: DataTable; editable: boolean }) {
  const translate = useTranslate();
  const tableId = String(table.id);
  const watermark = useWatermarkColumn(tableId);
  // A server without incremental checks answers no watermarkColumn: nothing to choose.
  if (table.watermarkColumn === undefined) return null;
  const current = table.watermarkColumn ?? NONE;
  const help = translate(current ? 'resources.tables.quality.watermark_on' : 'resources.tables.quality.watermark_off', { column: current });
  if (!editable) {
    return (
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }} data-watermark={current}>
        {help}
      </Typography>
    );
  }
  const choices = watermark.candidates.map((column) => column.name);
  // The stored column is offered even if the dictionary no longer lists it as a candidate.
  if (current && !choices.includes(current)) choices.unshift(current);
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mb: 2, flexWrap: 'wrap' }}>
      <TextField
        select
        size="small"
        label={translate('resources.tables.quality.watermark')}
        value={current}
        onChange={(event) => void watermark.save(event.target.value === NONE ? null : event.target.value)}
        disabled={watermark.saving || watermark.loading}
        helperText={choices.length === 0 && !watermark.loading ? translate('resources.tables.quality.watermark_none_fit') : help}
        sx={{ minWidth: 260, maxWidth: 520 }}
      >
        <MenuItem value={NONE}>{translate('resources.tables.quality.watermark_every_row')}</MenuItem>
        {choices.map((name) => (
          <MenuItem key={name} value={name} sx={{ fontFamily: 'monospace' }}>
            {name}
          </MenuItem>
        ))}
      </TextField>
      {watermark.saving && <Spinner size={16} />}
    </Box>
  );
}
