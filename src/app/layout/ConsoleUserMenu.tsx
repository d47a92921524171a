import CheckIcon from '@mui/icons-material/Check';
import LockResetIcon from '@mui/icons-material/LockReset';
import LogoutIcon from '@mui/icons-material/Logout';
import PersonIcon from '@mui/icons-material/Person';
import SecurityIcon from '@mui/icons-material/Security';
import { Box, Divider, ListItemIcon, ListItemText, MenuItem, Typography } from '@mui/material';
import type { ReactNode, Ref } from 'react';
import { LinkBase, useGetIdentity, UserMenu, useTranslate, useUserMenu } from 'react-admin';
import { LOCALE_NAMES, LOCALES, type Locale } from '../../../common/locales';
import { alerts } from '../../../providers/alerts';
import { AUTH_PATHS } from '../../../providers/authPaths';
import { useUserLocale, useUserLocaleSync } from '../../../providers/i18n/useUserLocale';
import { displayName } from '../../../providers/impersonation';
import { failureText } from '../../framework/feedback';
import { useSessionUser } from '../session';

function UserMenuLink({ to, icon, label, ref }: { to: string; icon: ReactNode; label: string; ref?: Ref<HTMLLIElement> }) {
  const userMenu = useUserMenu();
  return (
    <MenuItem ref={ref} component={LinkBase} to={to} onClick={userMenu?.onClose}>
      <ListItemIcon>{icon}</ListItemIcon>
      <ListItemText>{label}</ListItemText>
    </MenuItem>
  );
}

/** One language of the console, ticked when it is the one shown; choosing it keeps it for the user. */
function LanguageMenuItem({ locale, ref }: { locale: Locale; ref?: Ref<HTMLLIElement> }) {
  const userMenu = useUserMenu();
  const translate = useTranslate();
  const [current, choose] = useUserLocale();
  const chosen = current === locale;
  const select = () => {
    userMenu?.onClose();
    if (chosen) return;
    choose(locale).catch((error: unknown) => alerts.error(translate('app.language.save_error', { message: failureText(error) })));
  };
  return (
    <MenuItem
      ref={ref}
      onClick={select}
      selected={chosen}
      lang={locale}
      aria-label={translate('app.language.menu', { language: LOCALE_NAMES[locale] })}
    >
      <ListItemIcon>{chosen && <CheckIcon fontSize="small" />}</ListItemIcon>
      <ListItemText>{LOCALE_NAMES[locale]}</ListItemText>
    </MenuItem>
  );
}

/**
 * Who is signed in, the account's own screens (served by the sign-in part of the console) and
 * the console's language. The app bar shows it on every page, so it also keeps the console in
 * the user's language.
 */
export function ConsoleUserMenu() {
  const user = useSessionUser();
  const translate = useTranslate();
  useUserLocaleSync();
  // The button shows the user's name: its accessible name starts with it (WCAG 2.5.3), then says what it opens.
  const { identity } = useGetIdentity();
  const label = identity?.fullName ? translate('app.appbar.user_menu', { name: identity.fullName }) : undefined;
  return (
    <UserMenu label={label}>
      <Box sx={{ px: 2, py: 1, maxWidth: 280 }}>
        <Typography variant="subtitle2" noWrap>
          {displayName(user)}
        </Typography>
        {user?.email && (
          <Typography variant="body2" color="text.secondary" noWrap>
            {user.email}
          </Typography>
        )}
      </Box>
      <Divider />
      <UserMenuLink to="/profile" icon={<PersonIcon fontSize="small" />} label={translate('resources.users.profile.menu')} />
      <UserMenuLink
        to={AUTH_PATHS.changePassword}
        icon={<LockResetIcon fontSize="small" />}
        label={translate('app.appbar.change_password')}
      />
      <UserMenuLink to={AUTH_PATHS.registerTwoFactor} icon={<SecurityIcon fontSize="small" />} label={translate('app.appbar.two_factor')} />
      <Divider />
      {LOCALES.map((locale) => (
        <LanguageMenuItem key={locale} locale={locale} />
      ))}
      <Divider />
      <UserMenuLink to={AUTH_PATHS.logout} icon={<LogoutIcon fontSize="small" />} label={translate('app.appbar.sign_out')} />
    </UserMenu>
  );
}
