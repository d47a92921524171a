import { Box } from '@mui/material';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { useTranslate } from 'react-admin';
import { companyLogo, companyLogoUrl } from '../../../providers/companyLogo';
import { useSessionUser } from '../session';

/**
 * The company's logo at the start of the app bar, when it has one: read by host name like the
 * sign-in page does, and read again under its new address once the company page saves another.
 * A company without a logo (the image fails to load) shows nothing here.
 */
export function CompanyLogo() {
  const user = useSessionUser();
  const translate = useTranslate();
  const hostname = user?.companyHostname;
  const version = useSyncExternalStore(companyLogo.subscribe, () => companyLogo.of(hostname));
  const src = hostname && version !== null ? companyLogoUrl(hostname, version) : null;
  const [failed, setFailed] = useState<string | null>(null);
  useEffect(() => setFailed(null), [src]);

  if (!src || failed === src) return null;
  return (
    <Box
      component="img"
      src={src}
      alt={translate('app.company.logo_alt', { name: user?.companyName || hostname })}
      data-testid="appbar-company-logo"
      onError={() => setFailed(src)}
      // Logos are drawn for light paper: a light backing keeps them legible on the dark header too.
      sx={{
        display: 'block',
        boxSizing: 'border-box',
        height: 34,
        maxWidth: 168,
        width: 'auto',
        p: '3px',
        objectFit: 'contain',
        flexShrink: 0,
        bgcolor: '#ffffff',
        borderRadius: 1,
      }}
    />
  );
}
