import { useCallback, useState, type FormEvent } from 'react';
import { DEFAULT_PASSWORD_POLICY, type PasswordPolicy } from '../../../common/password-policy';
import { resetPassword, verifyResetToken } from '../../../providers/authActions';
import { AUTH_PATHS } from '../../../providers/authPaths';
import { useAuthState } from '../../../providers/authState';
import { PASSWORD_REDIRECT_MS } from '../delays';
import { useDelayedRedirect } from '../hooks/useDelayedRedirect';
import { useForm } from '../hooks/useForm';
import { useTokenCheck } from '../hooks/useTokenCheck';
import { passwordPairErrors, type PasswordPairValues } from '../validation';

/** The reset link: the token is checked (allowReset, clientId, the company's password rules), then the new password is saved. */
export function useCompleteReset(token: string) {
  const { state, run } = useAuthState();
  const redirect = useDelayedRedirect();
  const [passwordPolicy, setPasswordPolicy] = useState<PasswordPolicy>(DEFAULT_PASSWORD_POLICY);
  const form = useForm<PasswordPairValues>({ newPassword: '', confirmPassword: '' }, (values) =>
    passwordPairErrors(values, passwordPolicy),
  );

  const check = useCallback(
    async (value: string) => {
      const outcome = await run(() => verifyResetToken(value), {
        onSuccess: (grant) => ({ type: 'resetTokenVerified', email: grant.email, clientId: grant.clientId }),
      });
      if (outcome.ok) setPasswordPolicy(outcome.value.passwordPolicy);
      return outcome.ok;
    },
    [run],
  );
  const tokenStatus = useTokenCheck(token, check);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (state.loading || !state.allowReset || redirect.target || !form.check()) return;
    const outcome = await run(() => resetPassword({ email: state.email, newPassword: form.values.newPassword, clientId: state.clientId }), {
      successAlert: (answer) => answer.message,
    });
    if (outcome.ok) redirect.redirectAfter(AUTH_PATHS.signIn, PASSWORD_REDIRECT_MS);
  };

  return { form, submit, redirect, loading: state.loading, email: state.email, tokenStatus, allowReset: state.allowReset, passwordPolicy };
}
