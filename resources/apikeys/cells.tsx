import { Box, Chip } from '@mui/material';
import { useTranslate } from 'react-admin';

/** How a key is recognised: its prefix, never more. */
export function KeyPrefix({ prefix }: { prefix: string }) {
  return (
    <Box component="code" sx={{ fontFamily: 'monospace', fontSize: '0.85em', whiteSpace: 'nowrap' }}>
      dok_{prefix}…
    </Box>
  );
}

export function isExpired(expiresAt: string | null | undefined, now = Date.now()): boolean {
  return Boolean(expiresAt) && new Date(expiresAt!).getTime() <= now;
}

/** The expiry date, "Never" without one, and an "Expired" chip once it passed (the key no longer works). */
export function ExpiryValue({ expiresAt }: { expiresAt: string | null }) {
  const translate = useTranslate();
  if (!expiresAt) return <>{translate('resources.apikeys.never')}</>;
  const date = new Date(expiresAt);
  return (
    <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 1, whiteSpace: 'nowrap' }}>
      <time dateTime={expiresAt}>{Number.isNaN(date.getTime()) ? expiresAt : date.toLocaleDateString()}</time>
      {isExpired(expiresAt) && <Chip size="small" color="warning" label={translate('resources.apikeys.expired')} />}
    </Box>
  );
}
