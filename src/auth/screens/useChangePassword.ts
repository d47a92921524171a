import { useState, type FormEvent } from 'react';
import { changePassword } from '../../../providers/authActions';
import { AUTH_PATHS } from '../../../providers/authPaths';
import { useAuthState } from '../../../providers/authState';
import { firstNavigationUrl } from '../../../providers/firstNavigationUrl';
import { PASSWORD_REDIRECT_MS } from '../delays';
import { useDelayedRedirect } from '../hooks/useDelayedRedirect';
import { useForm } from '../hooks/useForm';
import { t } from '../i18n';
import { collectErrors, passwordPairErrors, requiredPasswordProblem } from '../validation';

type ChangeValues = {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
};

const validate = (values: ChangeValues) => {
  const pair = passwordPairErrors(values);
  const same = !pair.newPassword && values.newPassword === values.currentPassword ? t('auth.validation.sameAsCurrent') : null;
  return {
    ...collectErrors<Pick<ChangeValues, 'currentPassword'>>({ currentPassword: requiredPasswordProblem(values.currentPassword) }),
    ...pair,
    ...(same ? { newPassword: same } : {}),
  };
};

/**
 * A signed-in user's password change. The server ends every session of the user, so on success
 * the stored user is gone and the user signs in again after 5 s.
 */
export function useChangePassword() {
  const { state, run } = useAuthState();
  const redirect = useDelayedRedirect();
  const form = useForm<ChangeValues>({ currentPassword: '', newPassword: '', confirmPassword: '' }, validate);
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

  return { form, submit, redirect, loading: state.loading, consoleUrl };
}
