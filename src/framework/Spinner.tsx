import { Box, CircularProgress, Typography, type CircularProgressProps } from '@mui/material';
import { useTimeout, useTranslate } from 'react-admin';

/**
 * A spinning progress indicator that screen readers can name. An indeterminate progress bar
 * without a name is announced as nothing at all (axe: aria-progressbar-name), so every spinner in
 * the console is this one; `label` says what is in progress when "Loading" would be too vague.
 */
export function Spinner({ label, ...props }: CircularProgressProps & { label?: string }) {
  const translate = useTranslate();
  return <CircularProgress aria-label={label ?? translate('ra.page.loading')} {...props} />;
}

/**
 * What a page shows while its code or its first answer is on the way: nothing for the first
 * second (most pages are there by then), then a named spinner and "Loading".
 */
export function PageLoading() {
  const translate = useTranslate();
  const oneSecondHasPassed = useTimeout(1000);
  if (!oneSecondHasPassed) return null;
  return (
    <Box
      className="RaLoading-root"
      sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', justifyContent: 'center', minHeight: 240, gap: 2 }}
    >
      <Spinner />
      <Typography variant="h6" color="text.secondary">
        {translate('ra.page.loading')}
      </Typography>
    </Box>
  );
}
