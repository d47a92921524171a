import type { RaThemeOptions } from 'react-admin';

/**
 * The console's light and dark themes: one shape, two palettes. Calm surfaces, one indigo
 * accent, rounded outlined cards, sentence-case buttons.
 */
const shared: RaThemeOptions = {
  shape: { borderRadius: 10 },
  typography: {
    fontFamily: 'Inter, "Segoe UI", Roboto, "Helvetica Neue", system-ui, sans-serif',
    h5: { fontWeight: 600 },
    h6: { fontWeight: 600 },
    button: { textTransform: 'none', fontWeight: 600 },
  },
  sidebar: { width: 248, closedWidth: 64 },
  components: {
    MuiPaper: { styleOverrides: { root: { backgroundImage: 'none' } } },
    MuiCard: { defaultProps: { variant: 'outlined' } },
    MuiAppBar: { defaultProps: { elevation: 0 } },
    MuiButton: { defaultProps: { disableElevation: true } },
    MuiTextField: { defaultProps: { variant: 'outlined', size: 'small', margin: 'dense', fullWidth: true } },
    MuiFormControl: { defaultProps: { variant: 'outlined', size: 'small', margin: 'dense', fullWidth: true } },
    MuiTableCell: { styleOverrides: { head: { fontWeight: 600 } } },
    MuiListItemIcon: { styleOverrides: { root: { minWidth: 40 } } },
  },
};

export const lightTheme: RaThemeOptions = {
  ...shared,
  palette: {
    mode: 'light',
    primary: { main: '#4f46e5' },
    secondary: { main: '#0f766e' },
    background: { default: '#f5f6fa', paper: '#ffffff' },
  },
};

export const darkTheme: RaThemeOptions = {
  ...shared,
  palette: {
    mode: 'dark',
    primary: { main: '#a5b4fc' },
    secondary: { main: '#5eead4' },
    background: { default: '#0b1020', paper: '#131a2b' },
  },
};
