import { useEffect, useState } from 'react';
import { hostnameProblem, normaliseHostname } from '../../../common/hostname';
import { companyLogoUrl } from '../../../providers/companyLogo';
import { t } from '../i18n';

/** How long the host name must rest before its logo is asked for: one request per name, not per key. */
export const LOGO_DEBOUNCE_MS = 400;

/**
 * The logo of the company whose host name is being typed, once it is a valid host name and has
 * rested for a moment. Shown only once it has loaded: an unknown host name or a company without a
 * logo (404) shows nothing, and no broken image.
 */
export function CompanyLogo({ hostname }: { hostname: string }) {
  const name = normaliseHostname(hostname);
  const valid = hostnameProblem(name) === null;
  const [asked, setAsked] = useState<string | null>(null);
  const [loaded, setLoaded] = useState<string | null>(null);

  useEffect(() => {
    if (!valid) {
      setAsked(null);
      return undefined;
    }
    const timer = setTimeout(() => setAsked(name), LOGO_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [name, valid]);

  // While another name is being typed, the previous company's logo is not left on show.
  if (!asked || asked !== name) return null;
  return (
    <img
      key={asked}
      className="auth-company-logo"
      src={companyLogoUrl(asked)}
      alt={t('auth.signin.companyLogo', { hostname: asked })}
      hidden={loaded !== asked}
      onLoad={() => setLoaded(asked)}
      onError={() => setLoaded(null)}
    />
  );
}
