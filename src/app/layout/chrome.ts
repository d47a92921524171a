import type { SxProps, Theme } from '@mui/material/styles';
import type { HeaderColours, MenuColours } from '../../../providers/preferences';

/** Sizes and colours of the console's frame: sidebar, top menu and app bar. */
export const SIDEBAR_WIDTH = 248;
export const SIDEBAR_COLLAPSED_WIDTH = 64;
/** The content's width when the user turns full width off. */
export const CONTENT_MAX_WIDTH = 1200;

const DARK_SURFACE = '#111827';
const DARK_TEXT = 'rgba(226, 232, 240, 0.86)';

const MENU_COLOURS = {
  'menu-dark': {
    bgcolor: DARK_SURFACE,
    color: DARK_TEXT,
    '& .MuiListItemIcon-root, & .MuiListSubheader-root': { color: 'inherit' },
    '& .MuiListSubheader-root': { bgcolor: 'transparent', opacity: 0.7 },
    '& .MuiListItemButton-root:hover, & .MuiButton-root:hover': { bgcolor: 'rgba(255, 255, 255, 0.06)' },
    '& .Mui-selected, & .Mui-selected:hover, & .console-active': { bgcolor: 'rgba(129, 140, 248, 0.22) !important', color: '#ffffff' },
  },
  'menu-light': {
    bgcolor: 'background.paper',
    color: 'text.secondary',
    '& .MuiListItemIcon-root': { color: 'inherit' },
    '& .Mui-selected, & .console-active': { color: 'primary.main' },
  },
} satisfies Record<MenuColours, SxProps<Theme>>;

const HEADER_COLOURS = {
  'header-dark': { bgcolor: DARK_SURFACE, color: '#f8fafc' },
  'header-light': { bgcolor: 'background.paper', color: 'text.primary' },
} satisfies Record<HeaderColours, SxProps<Theme>>;

export function menuColours(colours: MenuColours) {
  return MENU_COLOURS[colours];
}

export function headerColours(colours: HeaderColours) {
  return HEADER_COLOURS[colours];
}
