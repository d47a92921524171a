import type { FormEvent } from 'react';
import { forgotPassword, lastCompanyHostname } from '../../../providers/authActions';
import { AUTH_PATHS } from '../../../providers/authPaths';
import { useAuthState } from '../../../providers/authState';
import { RESET_REQUEST_REDIRECT_MS } from '../delays';
import { useDelayedRedirect } from '../hooks/useDelayedRedirect';
import { useForm } from '../hooks/useForm';
import { accountLookupErrors, type AccountLookupValues } from '../validation';

/** Asks for a reset link by email; the server answers alike whether the account exists or not. */
export function useRequestReset() {
  const { state, run } = useAuthState();
  const redirect = useDelayedRedirect();
  const form = useForm<AccountLookupValues>(() => ({ email: '', companyHostname: lastCompanyHostname() }), accountLookupErrors);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (state.loading || redirect.target || !form.check()) return;
    const outcome = await run(() => forgotPassword(form.values), { successAlert: (answer) => answer.message });
    if (outcome.ok) redirect.redirectAfter(AUTH_PATHS.signIn, RESET_REQUEST_REDIRECT_MS);
  };

  return { form, submit, redirect, loading: state.loading };
}
