import { API_BASE } from './http';

/**
 * Where a company's logo is read, and which version of it the console last saw. The logo is
 * public by host name (the sign-in page shows it before anyone is signed in), so an `<img>` can
 * show it without the token header; naming the version (`v`) lets the browser keep it for good,
 * and a new version is a new address, so a saved logo shows at once.
 */

export function companyLogoUrl(hostname: string, version?: string | null): string {
  const query = new URLSearchParams({ hostname });
  if (version) query.set('v', version);
  return `${API_BASE}/company/logo?${query}`;
}

/** The `v` of a profile's `logoUrl` (`/api/v1/company/logo?v=…`), or null without a logo. */
export function logoVersionOf(logoUrl: string | null | undefined): string | null {
  if (!logoUrl) return null;
  return new URL(logoUrl, 'http://console.invalid').searchParams.get('v');
}

/**
 * What the console knows of a company's logo: `undefined` until a profile has been read (the app
 * bar then asks for the current one), `null` when there is none, else its version.
 */
export type KnownLogo = string | null | undefined;

/** The last profile read or saved in this tab, by host name: another sign-in in the tab knows nothing yet. */
let known: { hostname: string; version: string | null } | null = null;
const listeners = new Set<() => void>();

export const companyLogo = {
  /** The logo known for this company. */
  of(hostname: string | undefined): KnownLogo {
    return known && hostname && known.hostname === hostname ? known.version : undefined;
  },
  /** After reading or saving a profile: the logo it names. */
  set(hostname: string, version: string | null) {
    if (known?.hostname === hostname && known.version === version) return;
    known = { hostname, version };
    listeners.forEach((listener) => listener());
  },
  /** Forget what was known (a test's fresh start). */
  reset() {
    known = null;
    listeners.forEach((listener) => listener());
  },
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};
