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

/**
 * A company found without a logo by someone who cannot read its profile (its logo address answered
 * 404) is remembered in this browser for a day, so the console does not ask again on every load.
 */
export const NO_LOGO_MEMORY_MS = 24 * 60 * 60 * 1000;
const noLogoKey = (hostname: string) => `companyLogo.none.${hostname}`;

function rememberedNoLogo(hostname: string): boolean {
  try {
    const at = Number(localStorage.getItem(noLogoKey(hostname)));
    return Number.isFinite(at) && at > 0 && Date.now() - at < NO_LOGO_MEMORY_MS;
  } catch {
    return false;
  }
}

export const companyLogo = {
  /** The logo known for this company: its version, null for none, undefined when unknown. */
  of(hostname: string | undefined): KnownLogo {
    if (!hostname) return undefined;
    if (known?.hostname === hostname) return known.version;
    return rememberedNoLogo(hostname) ? null : undefined;
  },
  /** After reading or saving a profile: the logo it names. */
  set(hostname: string, version: string | null) {
    try {
      if (version === null) localStorage.setItem(noLogoKey(hostname), String(Date.now()));
      else localStorage.removeItem(noLogoKey(hostname));
    } catch {
      // Without storage the knowledge lasts as long as the tab.
    }
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
