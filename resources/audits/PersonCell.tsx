import { Box, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslate } from 'react-admin';

/**
 * Who: the name, the address under it. Without a name the address alone; without either, the
 * text the caller gives for that case (the system, a user since removed).
 */
export function PersonCell({
  name,
  email,
  missing,
}: {
  name: string | null | undefined;
  email: string | null | undefined;
  missing?: string;
}) {
  const translate = useTranslate();
  let main: ReactNode = name || email;
  if (!main) {
    return (
      <Typography component="span" variant="body2" color="text.secondary" sx={{ fontStyle: 'italic' }}>
        {missing ? translate(missing) : '—'}
      </Typography>
    );
  }
  if (name && email) {
    main = (
      <>
        {name}
        <Typography component="span" variant="caption" color="text.secondary" sx={{ display: 'block' }}>
          {email}
        </Typography>
      </>
    );
  }
  return (
    <Box component="span" sx={{ display: 'inline-block' }}>
      {main}
    </Box>
  );
}

/** The same, as one line of a CSV file: `Name <address>`. */
export function personText(name: string | null | undefined, email: string | null | undefined): string {
  if (name && email) return `${name} <${email}>`;
  return name || email || '';
}
