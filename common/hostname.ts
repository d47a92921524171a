/** Company host names: what a user types at sign-in to name their company. */
export const HOSTNAME_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

export function normaliseHostname(value: string): string {
  return value.trim().toLowerCase();
}

export function hostnameProblem(value: string): string | null {
  const hostname = normaliseHostname(value);
  if (!hostname) return 'Company host name is required';
  if (!HOSTNAME_PATTERN.test(hostname)) {
    return 'Company host name may use lower-case letters, digits and inner hyphens (at most 63 characters)';
  }
  return null;
}
