import type { ComponentType } from 'react';
import { Navigate, useLocation } from 'react-router';
import { AUTH_PATHS, isAuthPath, type AuthPath } from '../../providers/authPaths';
import { ActivateAccountScreen } from './screens/ActivateAccountScreen';
import { ChangePasswordScreen } from './screens/ChangePasswordScreen';
import { ContactAdminScreen } from './screens/ContactAdminScreen';
import { CreateCompanyScreen } from './screens/CreateCompanyScreen';
import { LogoutScreen } from './screens/LogoutScreen';
import { RegisterTwoFactorScreen } from './screens/RegisterTwoFactorScreen';
import { ResetPasswordScreen } from './screens/ResetPasswordScreen';
import { ResetUserAccountScreen } from './screens/ResetUserAccountScreen';
import { SignInScreen } from './screens/SignInScreen';
import { VerifyOtpScreen } from './screens/VerifyOtpScreen';
import './auth.css';

const SCREENS: Record<AuthPath, ComponentType> = {
  [AUTH_PATHS.signIn]: SignInScreen,
  [AUTH_PATHS.verifyOtp]: VerifyOtpScreen,
  [AUTH_PATHS.registerTwoFactor]: RegisterTwoFactorScreen,
  [AUTH_PATHS.activateAccount]: ActivateAccountScreen,
  [AUTH_PATHS.resetPassword]: ResetPasswordScreen,
  [AUTH_PATHS.changePassword]: ChangePasswordScreen,
  [AUTH_PATHS.resetUserAccount]: ResetUserAccountScreen,
  [AUTH_PATHS.logout]: LogoutScreen,
  [AUTH_PATHS.contactAdmin]: ContactAdminScreen,
  [AUTH_PATHS.createCompany]: CreateCompanyScreen,
};

/**
 * The authentication part of the console, one lazily loaded chunk for every public route.
 * Plain React and one stylesheet: nothing here may import react-admin, MUI or emotion.
 */
export default function AuthApp() {
  const pathname = useLocation().pathname.replace(/\/+$/, '');
  if (!isAuthPath(pathname)) return <Navigate to={AUTH_PATHS.signIn} replace />;
  const Screen = SCREENS[pathname];
  // Keyed by path: moving between screens starts each one afresh.
  return <Screen key={pathname} />;
}
