import { Link } from 'react-router';
import { logout } from '../../../providers/authActions';
import { AUTH_PATHS } from '../../../providers/authPaths';
import { t } from '../i18n';

/** Drops the half-finished sign-in (its session too) and starts again. */
export function AnotherAccountLink() {
  return (
    <Link to={AUTH_PATHS.signIn} replace onClick={() => void logout()}>
      {t('auth.links.anotherAccount')}
    </Link>
  );
}
