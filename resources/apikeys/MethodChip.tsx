import { Chip } from '@mui/material';
import { METHOD_COLORS } from './api';

/** An HTTP method as a small coloured chip, fixed width so paths line up. */
export function MethodChip({ method }: { method: string }) {
  return (
    <Chip
      size="small"
      label={method}
      color={METHOD_COLORS[method] ?? 'default'}
      sx={{ fontFamily: 'monospace', fontWeight: 600, minWidth: 64, height: 20, fontSize: '0.7rem' }}
    />
  );
}
