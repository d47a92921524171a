import { Link } from 'react-router';
import { t } from '../i18n';
import type { DelayedRedirect } from '../hooks/useDelayedRedirect';

/** "Taking you to sign-in in 5 s… Go now" while a delayed redirect is pending. */
export function RedirectNotice({ redirect }: { redirect: DelayedRedirect }) {
  if (!redirect.target) return null;
  return (
    <p className="auth-redirect" role="status">
      {t('auth.redirect.signIn', { seconds: redirect.secondsLeft })}{' '}
      <Link to={redirect.target} replace>
        {t('auth.links.goNow')}
      </Link>
    </p>
  );
}
