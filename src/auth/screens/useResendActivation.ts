import type { FormEvent } from 'react';
import { lastCompanyHostname, resendActivation } from '../../../providers/authActions';
import { useAuthState } from '../../../providers/authState';
import { useForm } from '../hooks/useForm';
import { accountLookupErrors, type AccountLookupValues } from '../validation';

/** A new activation link: the server's answer (or error) is shown and the form starts over. */
export function useResendActivation() {
  const { state, run } = useAuthState();
  const form = useForm<AccountLookupValues>(() => ({ email: '', companyHostname: lastCompanyHostname() }), accountLookupErrors);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (state.loading || !form.check()) return;
    // Spec section 4: resending a verification clears the state on either outcome.
    await run(() => resendActivation(form.values), {
      onSuccess: () => ({ type: 'clear' }),
      onFailure: () => ({ type: 'clear' }),
      successAlert: (answer) => answer.message,
    });
    form.reset();
  };

  return { form, submit, loading: state.loading };
}
