import { useEffect, useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { alerts } from '../../../providers/alerts';
import { lastCompanyHostname, signIn } from '../../../providers/authActions';
import { AUTH_PATHS } from '../../../providers/authPaths';
import { useAuthState } from '../../../providers/authState';
import { ApiError } from '../../../providers/http';
import { usePrefetchConsole } from '../../shell/ChunksContext';
import { startLandingCalls } from '../../shell/landingCalls';
import { useForm } from '../hooks/useForm';
import { t } from '../i18n';
import { collectErrors, emailProblem, hostnameProblem, requiredPasswordProblem } from '../validation';
import { readSignInPrefill } from './signInPrefill';

type SignInValues = {
  email: string;
  password: string;
  companyHostname: string;
};

const validate = (values: SignInValues) =>
  collectErrors<SignInValues>({
    email: emailProblem(values.email),
    password: requiredPasswordProblem(values.password),
    companyHostname: hostnameProblem(values.companyHostname),
  });

/** At most this long after the sign-in form is drawn, the console starts loading even if the browser is never idle. */
const CONSOLE_LOAD_WAIT_MS = 1000;

/** Sign-in: checks the form, signs in, and follows the sign-in result of spec section 4. */
export function useSignIn() {
  const navigate = useNavigate();
  const { state, run } = useAuthState();
  const prefetchConsole = usePrefetchConsole();
  // A link from activation or onboarding names the account: the form opens filled with it.
  const [search] = useSearchParams();
  const [prefill] = useState(() => readSignInPrefill(search));
  const form = useForm<SignInValues>(
    () => ({ email: prefill.email, password: '', companyHostname: prefill.companyHostname || lastCompanyHostname() }),
    validate,
  );
  // A refused account (403: deactivated or not activated yet) is offered its administrator.
  const [blocked, setBlocked] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (state.loading || !form.check()) return;
    setBlocked(false);
    const signingIn = run(() => signIn(form.values), {
      onSuccess: (result) => (result.user ? { type: 'loginSuccess', user: result.user } : { type: 'logout' }),
      onFailure: (error) => ({ type: 'loginFailure', error }),
    });
    // The console is fetched while the credentials are checked, not after; requested once the
    // sign-in call is on its way, so that the call never queues behind the console's files.
    prefetchConsole();
    const outcome = await signingIn;
    if (outcome.ok && outcome.value.next === AUTH_PATHS.signIn) {
      // Spec section 4, "otherwise": the answer did not sign the user in; say so rather than nothing.
      alerts.error(outcome.value.message || t('auth.signin.incomplete'));
    } else if (outcome.ok) {
      startLandingCalls(outcome.value);
      navigate(outcome.value.next, { replace: true });
    } else {
      setBlocked(outcome.error instanceof ApiError && outcome.error.status === 403);
      form.setValue('password', '');
    }
  };

  // Someone on the sign-in form is about to sign in: the console starts loading once the form is
  // drawn and the browser is idle (or at the first keystroke, if that comes first), so that its
  // code is fetched and run before they submit, not between the sign-in answer and the console.
  useEffect(() => {
    if (typeof requestIdleCallback !== 'function') return;
    const id = requestIdleCallback(prefetchConsole, { timeout: CONSOLE_LOAD_WAIT_MS });
    return () => cancelIdleCallback(id);
  }, [prefetchConsole]);

  return { form, submit, loading: state.loading, blocked, startLoadingConsole: prefetchConsole, prefilled: prefill.email !== '' };
}
