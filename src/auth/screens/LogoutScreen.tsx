import { useNavigate } from 'react-router';
import { logout } from '../../../providers/authActions';
import { AUTH_PATHS } from '../../../providers/authPaths';
import { AuthLayout } from '../components/AuthLayout';
import { useMountEffect } from '../hooks/useMountEffect';
import { t } from '../i18n';

/** Ends the session, then replaces this entry so Back cannot return to a signed-in page. */
export function LogoutScreen() {
  const navigate = useNavigate();
  useMountEffect(() => {
    void logout().then(() => navigate(AUTH_PATHS.signIn, { replace: true }));
  });
  return (
    <AuthLayout title={t('auth.logout.title')}>
      <p className="auth-text" role="status">
        {t('auth.logout.body')}
      </p>
    </AuthLayout>
  );
}
