import { memo } from 'react';
import { Box, Drawer } from '@mui/material';
import { useLayoutPreferences } from '../preferences/LayoutPreferencesContext';
import { SideMenu } from '../menu/SideMenu';
import { menuColours, SIDEBAR_COLLAPSED_WIDTH, SIDEBAR_WIDTH } from './chrome';

export interface ConsoleSidebarProps {
  /** On a phone the sidebar is a drawer over the content. */
  temporary: boolean;
  mobileOpen: boolean;
  onMobileClose: () => void;
  /** Height of a fixed header, which a fixed sidebar stays below. */
  headerOffset: number;
}

/** The vertical layout's sidebar: its colours, width (collapsed to icons) and fixed position. */
export const ConsoleSidebar = memo(function ConsoleSidebar({ temporary, mobileOpen, onMobileClose, headerOffset }: ConsoleSidebarProps) {
  const [{ layoutType, collapseMenu, navFixedLayout }] = useLayoutPreferences();
  if (temporary) {
    return (
      <Drawer open={mobileOpen} onClose={onMobileClose} slotProps={{ paper: { sx: [menuColours(layoutType), { width: SIDEBAR_WIDTH }] } }}>
        <SideMenu onNavigate={onMobileClose} />
      </Drawer>
    );
  }
  return (
    <Box
      component="aside"
      sx={[
        menuColours(layoutType),
        {
          width: collapseMenu ? SIDEBAR_COLLAPSED_WIDTH : SIDEBAR_WIDTH,
          flexShrink: 0,
          overflowX: 'hidden',
          transition: (theme) => theme.transitions.create('width'),
          borderRight: 1,
          borderColor: 'divider',
        },
        navFixedLayout
          ? { position: 'sticky', top: headerOffset, alignSelf: 'flex-start', height: `calc(100vh - ${headerOffset}px)`, overflowY: 'auto' }
          : { position: 'relative' },
      ]}
    >
      <SideMenu iconsOnly={collapseMenu} />
    </Box>
  );
});
