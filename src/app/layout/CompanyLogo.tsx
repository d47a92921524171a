import { Box } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { useTranslate } from 'react-admin';
import { companyLogo, companyLogoUrl, logoVersionOf } from '../../../providers/companyLogo';
import { COMPANY_PROFILE_KEY, getCompanyProfile } from '../../pages/company/api';
import { useSessionUser } from '../session';

/**
 * The company's logo at the start of the app bar, when it has one, read again under its new
 * address once the company page saves another. The logo is asked for only when the company has
 * one: an admin's console learns that from the company profile first; anyone else's tries the
 * logo's address once, and a 404 is remembered (providers/companyLogo.ts).
 */
export function CompanyLogo() {
  const user = useSessionUser();
  const translate = useTranslate();
  const hostname = user?.companyHostname;
  const version = useSyncExternalStore(companyLogo.subscribe, () => companyLogo.of(hostname));
  const askProfile = Boolean(hostname && user?.isAdmin && version === undefined);
  const profile = useQuery({
    queryKey: COMPANY_PROFILE_KEY,
    queryFn: ({ signal }) => getCompanyProfile(signal),
    enabled: askProfile,
    retry: false,
  });
  useEffect(() => {
    if (profile.data) companyLogo.set(profile.data.hostname, logoVersionOf(profile.data.logoUrl));
  }, [profile.data]);
  // While an admin's profile read is on its way, nothing is asked; if it fails, the logo is tried as for anyone.
  const waiting = askProfile && !profile.isError;
  const src = hostname && version !== null && !waiting ? companyLogoUrl(hostname, version) : null;
  const [failed, setFailed] = useState<string | null>(null);
  useEffect(() => setFailed(null), [src]);

  if (!src || failed === src) return null;
  return (
    <Box
      component="img"
      src={src}
      alt={translate('app.company.logo_alt', { name: user?.companyName || hostname })}
      data-testid="appbar-company-logo"
      onError={() => {
        setFailed(src);
        // No logo there: remembered, so it is not asked for again (a known version may just have failed to load).
        if (hostname && version === undefined) companyLogo.set(hostname, null);
      }}
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
