import { useCallback, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { TEMPORARY_PASSWORD_MISMATCH } from '../../../common/messages';
import { DEFAULT_PASSWORD_POLICY, type PasswordPolicy } from '../../../common/password-policy';
import { createPassword, verifyActivationToken } from '../../../providers/authActions';
import { AUTH_PATHS } from '../../../providers/authPaths';
import { useAuthState } from '../../../providers/authState';
import { PASSWORD_REDIRECT_MS } from '../delays';
import { useDelayedRedirect } from '../hooks/useDelayedRedirect';
import { useForm } from '../hooks/useForm';
import { useTokenCheck } from '../hooks/useTokenCheck';
import { collectErrors, passwordPairErrors, requiredPasswordProblem } from '../validation';
import { signInLink } from './signInPrefill';

type ActivationValues = {
  temporaryPassword: string;
  newPassword: string;
  confirmPassword: string;
};

const validate = (values: ActivationValues, policy: PasswordPolicy) => ({
  ...collectErrors<Pick<ActivationValues, 'temporaryPassword'>>({ temporaryPassword: requiredPasswordProblem(values.temporaryPassword) }),
  ...passwordPairErrors(values, policy),
});

/**
 * Account activation from the invitation link: the token is checked first (allowCreate is true
 * only when it is verified; the company's password rules come with it), then the temporary
 * password is exchanged for the user's own.
 */
export function useActivateAccount() {
  const token = useSearchParams()[0].get('token') ?? '';
  const { state, run } = useAuthState();
  const redirect = useDelayedRedirect();
  const [passwordPolicy, setPasswordPolicy] = useState<PasswordPolicy>(DEFAULT_PASSWORD_POLICY);
  // The host name the account signs in with, as the activation link's check tells it.
  const [companyHostname, setCompanyHostname] = useState('');
  const form = useForm<ActivationValues>({ temporaryPassword: '', newPassword: '', confirmPassword: '' }, (values) =>
    validate(values, passwordPolicy),
  );

  const check = useCallback(
    async (value: string) => {
      const outcome = await run(() => verifyActivationToken(value), {
        onSuccess: (result) => ({ type: 'activationTokenChecked', email: result.email, verified: result.verified }),
      });
      if (outcome.ok) {
        setPasswordPolicy(outcome.value.passwordPolicy);
        setCompanyHostname(outcome.value.companyHostname);
      }
      return outcome.ok && outcome.value.verified;
    },
    [run],
  );
  const tokenStatus = useTokenCheck(token, check);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (state.loading || !state.allowCreate || redirect.target || !form.check()) return;
    const { temporaryPassword, newPassword } = form.values;
    const outcome = await run(() => createPassword({ defaultPasswordToken: token, oldPassword: temporaryPassword, newPassword }), {
      successAlert: (answer) => answer.message,
    });
    // Spec section 8: a wrong temporary password also returns to sign-in after 5 s.
    if (outcome.ok) {
      // The sign-in form opens filled with the account's email and host name: only the new password is left to type.
      redirect.redirectAfter(signInLink({ email: state.email, companyHostname }), PASSWORD_REDIRECT_MS);
    } else if (outcome.message.includes(TEMPORARY_PASSWORD_MISMATCH)) {
      redirect.redirectAfter(AUTH_PATHS.signIn, PASSWORD_REDIRECT_MS);
    }
  };

  return {
    form,
    submit,
    redirect,
    loading: state.loading,
    email: state.email,
    tokenStatus,
    allowCreate: state.allowCreate,
    passwordPolicy,
  };
}
