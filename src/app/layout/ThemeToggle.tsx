import DarkModeIcon from '@mui/icons-material/DarkModeOutlined';
import LightModeIcon from '@mui/icons-material/LightModeOutlined';
import { IconButton, Tooltip } from '@mui/material';
import { useTranslate } from 'react-admin';
import { useLayoutPreferences } from '../preferences/LayoutPreferencesContext';

/**
 * Light or dark. Unlike react-admin's ToggleThemeButton (which keeps the mode in the Store that
 * logout wipes), the choice is a layout preference kept on the server.
 */
export function ThemeToggle() {
  const [{ theme }, { setTheme }] = useLayoutPreferences();
  const translate = useTranslate();
  const dark = theme === 'dark';
  const label = translate(dark ? 'app.appbar.theme_light' : 'app.appbar.theme_dark');
  return (
    <Tooltip title={label}>
      <IconButton color="inherit" aria-label={label} onClick={() => setTheme(dark ? 'light' : 'dark')}>
        {dark ? <LightModeIcon /> : <DarkModeIcon />}
      </IconButton>
    </Tooltip>
  );
}
