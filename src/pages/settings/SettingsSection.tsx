import { Box, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslate } from 'react-admin';

/** A titled part of a settings form, with an optional sentence under its title. */
export function SettingsSection({ title, intro, children }: { title: string; intro?: string; children: ReactNode }) {
  const translate = useTranslate();
  const heading = translate(title);
  return (
    <Box component="section" aria-label={heading} sx={{ mb: 3 }}>
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
        {heading}
      </Typography>
      {intro && (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {translate(intro)}
        </Typography>
      )}
      {children}
    </Box>
  );
}

/** Inputs side by side on wide screens (one column per `columns` entry), one under the other on narrow ones. */
export function FieldRow({ columns, children }: { columns: string; children: ReactNode }) {
  return <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: columns }, columnGap: 2, alignItems: 'start' }}>{children}</Box>;
}

/** Who changed a group last, and when; or that its defaults apply. */
export function LastChange({ updatedAt, updatedByName }: { updatedAt: string | null; updatedByName: string | null }) {
  const translate = useTranslate();
  const text = !updatedAt
    ? translate('resources.settings.never_changed')
    : updatedByName
      ? translate('resources.settings.changed', { when: new Date(updatedAt).toLocaleString(), who: updatedByName })
      : translate('resources.settings.changed_by_nobody', { when: new Date(updatedAt).toLocaleString() });
  return (
    <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
      {text}
    </Typography>
  );
}
