import LockResetIcon from '@mui/icons-material/LockReset';
import LogoutIcon from '@mui/icons-material/Logout';
import PersonIcon from '@mui/icons-material/Person';
import SecurityIcon from '@mui/icons-material/Security';
import { Box, Divider, ListItemIcon, ListItemText, MenuItem, Typography } from '@mui/material';
import type { ReactNode, Ref } from 'react';
import { LinkBase, UserMenu, useTranslate, useUserMenu } from 'react-admin';
import { AUTH_PATHS } from '../../../providers/authPaths';
import { displayName } from '../../../providers/impersonation';
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

/** Who is signed in, and the account's own screens (served by the sign-in part of the console). */
export function ConsoleUserMenu() {
  const user = useSessionUser();
  const translate = useTranslate();
  return (
    <UserMenu>
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
      <UserMenuLink to={AUTH_PATHS.logout} icon={<LogoutIcon fontSize="small" />} label={translate('app.appbar.sign_out')} />
    </UserMenu>
  );
}
