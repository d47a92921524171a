import type { RaThemeOptions } from 'react-admin';
import type { Theme } from '@mui/material';

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
    // No page scrolls sideways (1280 px wide and up): a list's toolbar lets its filters and buttons
    // wrap, and a table wider than its card scrolls inside the card, not the page.
    RaListToolbar: { styleOverrides: { root: { flexWrap: 'wrap', columnGap: 8 } } },
    RaTopToolbar: { styleOverrides: { root: { flexWrap: 'wrap' } } },
    RaDataTable: { styleOverrides: { root: { '& .RaDataTable-tableWrapper': { overflowX: 'auto' } } } },
    // The list's column (a flex item) may be narrower than its table, so the table can scroll.
    RaList: { styleOverrides: { root: { '& .RaList-main': { minWidth: 0 } } } },
    // Initials on a plain avatar: MUI's grey under the page's background colour reads at 1.6:1; these at 7:1.
    MuiAvatar: {
      styleOverrides: {
        colorDefault: ({ theme }: { theme: Theme }) =>
          theme.palette.mode === 'dark'
            ? { backgroundColor: '#94a3b8', color: '#0b1020' }
            : { backgroundColor: '#475569', color: '#ffffff' },
      },
    },
    // A field's helper text says what the field is for: it stays readable (4.5:1) while the field
    // is disabled, as a choice is while its options load, rather than MUI's disabled grey (2.7:1).
    MuiFormHelperText: {
      styleOverrides: {
        root: ({ theme }: { theme: Theme }) => ({ '&.Mui-disabled': { color: theme.palette.text.secondary } }),
      },
    },
    // A checkbox given `aria-label` (react-admin's row selection does so) names its input, where a
    // screen reader looks, not the span around it, which may not carry one.
    MuiCheckbox: {
      defaultProps: {
        slotProps: {
          root: (ownerState: object) => ('aria-label' in ownerState ? { 'aria-label': undefined } : {}),
          input: (ownerState: object) =>
            'aria-label' in ownerState ? { 'aria-label': (ownerState as { 'aria-label'?: string })['aria-label'] } : {},
        },
      },
    },
  },
};

/**
 * For people who asked their system for less motion (prefers-reduced-motion): menus, dialogs,
 * drawers and panels appear and go at once instead of growing, fading or sliding, and a loading
 * placeholder stays still instead of pulsing. Progress spinners still turn: they say that
 * something is under way.
 */
const STILL: RaThemeOptions['transitions'] = {
  duration: { shortest: 0, shorter: 0, short: 0, standard: 0, complex: 0, enteringScreen: 0, leavingScreen: 0 },
  getAutoHeightDuration: () => 0,
};

export function withReducedMotion(theme: RaThemeOptions): RaThemeOptions {
  return {
    ...theme,
    transitions: STILL,
    components: { ...theme.components, MuiSkeleton: { defaultProps: { animation: false } } },
  };
}

export const lightTheme: RaThemeOptions = {
  ...shared,
  palette: {
    mode: 'light',
    primary: { main: '#4f46e5' },
    secondary: { main: '#0f766e' },
    // Darker than MUI's own, so that white text on a filled chip reads at 4.5:1 or more (WCAG AA).
    warning: { main: '#b45309' },
    info: { main: '#0369a1' },
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
