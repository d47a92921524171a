import { AUTH_PATHS } from '../../../providers/authPaths';

/** What the sign-in form may be opened with: the account just activated or created. */
export interface SignInPrefill {
  email?: string;
  companyHostname?: string;
}

const EMAIL_PARAM = 'email';
const HOSTNAME_PARAM = 'companyHostname';

/** The sign-in route, filled with an email and host name when they are known. */
export function signInLink(prefill: SignInPrefill): string {
  const params = new URLSearchParams();
  if (prefill.email) params.set(EMAIL_PARAM, prefill.email);
  if (prefill.companyHostname) params.set(HOSTNAME_PARAM, prefill.companyHostname);
  const query = params.toString();
  return query ? `${AUTH_PATHS.signIn}?${query}` : AUTH_PATHS.signIn;
}

/** The email and host name a sign-in link was given (empty when it named none). */
export function readSignInPrefill(search: URLSearchParams): Required<SignInPrefill> {
  return { email: search.get(EMAIL_PARAM) ?? '', companyHostname: search.get(HOSTNAME_PARAM) ?? '' };
}
