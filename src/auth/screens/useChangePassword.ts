import { useState, type FormEvent } from 'react';
import { DEFAULT_PASSWORD_POLICY, type PasswordPolicy } from '../../../common/password-policy';
import { changePassword, getPasswordPolicy } from '../../../providers/authActions';
import { AUTH_PATHS } from '../../../providers/authPaths';
import { useAuthState } from '../../../providers/authState';
import { firstNavigationUrl } from '../../../providers/firstNavigationUrl';
import { PASSWORD_REDIRECT_MS } from '../delays';
import { useDelayedRedirect } from '../hooks/useDelayedRedirect';
import { useForm } from '../hooks/useForm';
import { useMountEffect } from '../hooks/useMountEffect';
import { t } from '../i18n';
import { collectErrors, passwordPairErrors, requiredPasswordProblem } from '../validation';

type ChangeValues = {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
};

const validate = (values: ChangeValues, policy: PasswordPolicy) => {
  const pair = passwordPairErrors(values, policy);
  const same = !pair.newPassword && values.newPassword === values.currentPassword ? t('auth.validation.sameAsCurrent') : null;
  return {
    ...collectErrors<Pick<ChangeValues, 'currentPassword'>>({ currentPassword: requiredPasswordProblem(values.currentPassword) }),
    ...pair,
    ...(same ? { newPassword: same } : {}),
  };
};

/**
 * A signed-in user's password change, held to the company's password rules (read when the screen
 * opens; the default ones until then, or when they cannot be read: the server checks again). The
 * server ends every session of the user, so on success the stored user is gone and the user signs
 * in again after 5 s.
 */
export function useChangePassword() {
  const { state, run } = useAuthState();
  const redirect = useDelayedRedirect();
  const [passwordPolicy, setPasswordPolicy] = useState<PasswordPolicy>(DEFAULT_PASSWORD_POLICY);
  const form = useForm<ChangeValues>({ currentPassword: '', newPassword: '', confirmPassword: '' }, (values) =>
    validate(values, passwordPolicy),
  );
  useMountEffect(() => {
    getPasswordPolicy().then(setPasswordPolicy, () => undefined);
  });
  // Read while still signed in: the way back is gone once the password has changed.
  const [consoleUrl] = useState(() => firstNavigationUrl());

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (state.loading || redirect.target || !form.check()) return;
    const { currentPassword, newPassword } = form.values;
    const outcome = await run(() => changePassword({ oldPassword: currentPassword, newPassword }), {
      onSuccess: () => ({ type: 'logout' }),
      successAlert: (answer) => answer.message,
    });
    if (outcome.ok) redirect.redirectAfter(AUTH_PATHS.signIn, PASSWORD_REDIRECT_MS);
  };

  return { form, submit, redirect, loading: state.loading, consoleUrl, passwordPolicy };
}
