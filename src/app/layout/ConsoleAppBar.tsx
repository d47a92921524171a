import { memo } from 'react';
import MenuIcon from '@mui/icons-material/Menu';
import MenuOpenIcon from '@mui/icons-material/MenuOpen';
import TuneIcon from '@mui/icons-material/Tune';
import { AppBar, IconButton, Toolbar, Tooltip } from '@mui/material';
import { useTranslate } from 'react-admin';
import { useLayoutPreferences } from '../preferences/LayoutPreferencesContext';
import { Breadcrumb } from './Breadcrumb';
import { headerColours } from './chrome';
import { LoadingIndicator } from './LoadingIndicator';
import { CompanyLogo } from './CompanyLogo';
import { ConsoleUserMenu } from './ConsoleUserMenu';
import { NotificationBell } from './NotificationBell';
import { ThemeToggle } from './ThemeToggle';

export interface ConsoleAppBarProps {
  /** Shown in the vertical layout: collapses the sidebar (opens it on a phone). */
  onMenuButton?: () => void;
  menuOpen: boolean;
  onCustomize: () => void;
}

export const ConsoleAppBar = memo(function ConsoleAppBar({ onMenuButton, menuOpen, onCustomize }: ConsoleAppBarProps) {
  const [{ headerBackColor }] = useLayoutPreferences();
  const translate = useTranslate();
  const menuLabel = translate(menuOpen ? 'app.menu.collapse' : 'app.menu.expand');
  const customizeLabel = translate('app.appbar.customize');
  return (
    <AppBar position="static" color="inherit" sx={[headerColours(headerBackColor), { borderBottom: 1, borderColor: 'divider' }]}>
      <Toolbar variant="dense" sx={{ gap: 1, minHeight: 56, px: { xs: 1, sm: 2 } }}>
        {onMenuButton && (
          <Tooltip title={menuLabel}>
            <IconButton color="inherit" edge="start" aria-label={menuLabel} aria-expanded={menuOpen} onClick={onMenuButton}>
              {menuOpen ? <MenuOpenIcon /> : <MenuIcon />}
            </IconButton>
          </Tooltip>
        )}
        <CompanyLogo />
        <Breadcrumb />
        <LoadingIndicator />
        <NotificationBell />
        <ThemeToggle />
        <Tooltip title={customizeLabel}>
          <IconButton color="inherit" aria-label={customizeLabel} onClick={onCustomize}>
            <TuneIcon />
          </IconButton>
        </Tooltip>
        <ConsoleUserMenu />
      </Toolbar>
    </AppBar>
  );
});
