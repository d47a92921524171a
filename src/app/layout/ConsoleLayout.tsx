import { Box, useMediaQuery, type Theme } from '@mui/material';
import {
  Suspense,
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  useSyncExternalStore,
  type ReactNode,
  type RefObject,
} from 'react';
import { SkipNavigationButton, useTheme } from 'react-admin';
import { AlertBar } from '../../shell/AlertBar';
import { ImpersonationBanner } from '../ImpersonationBanner';
import { ListPrimer } from '../../framework/list/ListPrimer';
import { TopMenu } from '../menu/TopMenu';
import { useLayoutPreferences } from '../preferences/LayoutPreferencesContext';
import { FilterRoomContext } from '../../framework/list/filterRoom';
import { CONTENT_MAX_WIDTH, menuColours, SIDEBAR_COLLAPSED_WIDTH, SIDEBAR_WIDTH } from './chrome';
import { ConsoleAppBar } from './ConsoleAppBar';
import { ConsoleSidebar } from './ConsoleSidebar';
import { ContentErrorBoundary } from './ContentErrorBoundary';
import { CustomizeDrawer } from './CustomizeDrawer';
import { PageLoading } from '../../framework/Spinner';

/** The header's height, followed as it changes (the banner comes and goes, the menu wraps). */
function useHeight(ref: RefObject<HTMLElement | null>): number {
  const [height, setHeight] = useState(0);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    setHeight(element.offsetHeight);
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setHeight(element.offsetHeight));
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return height;
}

/** react-admin's theme follows the theme preference (the Admin's Store is not where it is kept). */
function useThemeModeFromPreferences(mode: 'light' | 'dark') {
  const [current, setCurrent] = useTheme();
  useEffect(() => {
    if (current !== mode) setCurrent(mode);
  }, [current, mode, setCurrent]);
}

const onResize = (changed: () => void) => {
  window.addEventListener('resize', changed);
  return () => window.removeEventListener('resize', changed);
};
const windowWidth = () => window.innerWidth;

/** Room kept for a vertical scroll bar beside the page's content, px. */
const SCROLLBAR_ROOM = 16;

/**
 * How wide the page's content is, from the window's width and the frame around it (the sidebar,
 * the main area's padding, the content's largest width): the room a list's filter row has.
 */
function useContentWidth(sidebar: number, fullWidth: boolean): number {
  const width = useSyncExternalStore(onResize, windowWidth);
  const isSmall = useMediaQuery<Theme>((theme) => theme.breakpoints.down('md'), { noSsr: true });
  const isPhone = useMediaQuery<Theme>((theme) => theme.breakpoints.down('sm'), { noSsr: true });
  const padding = isPhone ? 16 : isSmall ? 32 : 48;
  const content = width - sidebar - padding - SCROLLBAR_ROOM;
  return fullWidth ? content : Math.min(content, CONTENT_MAX_WIDTH);
}

/**
 * The signed-in frame, arranged by the user's layout preferences: impersonation banner, app bar
 * and (horizontal layout) top menu in the header, sticky when the header is fixed; the sidebar
 * (vertical layout); the alert bar over the page; the Customize drawer.
 */
export function ConsoleLayout({ children }: { children?: ReactNode }) {
  const [preferences, actions] = useLayoutPreferences();
  const [customizing, setCustomizing] = useState(false);
  const [mobileMenuOpen, setMobileMenuOpen] = useState(false);
  const isPhone = useMediaQuery<Theme>((theme) => theme.breakpoints.down('sm'), { noSsr: true });
  const headerRef = useRef<HTMLElement>(null);
  const headerHeight = useHeight(headerRef);
  useThemeModeFromPreferences(preferences.theme);

  const vertical = preferences.layout === 'vertical';
  const fixedHeader = preferences.headerFixedLayout;
  const sidebarWidth = vertical && !isPhone ? (preferences.collapseMenu ? SIDEBAR_COLLAPSED_WIDTH : SIDEBAR_WIDTH) : 0;
  const contentWidth = useContentWidth(sidebarWidth, preferences.fullWidthLayout);
  // Stable handlers: the header, the sidebar and the drawer are not rendered again when only the page changes.
  const { toggleMenuCollapse } = actions;
  const toggleMenu = useCallback(
    () => (isPhone ? setMobileMenuOpen((open) => !open) : toggleMenuCollapse()),
    [isPhone, toggleMenuCollapse],
  );
  const openCustomize = useCallback(() => setCustomizing(true), []);
  const closeCustomize = useCallback(() => setCustomizing(false), []);
  const closeMobileMenu = useCallback(() => setMobileMenuOpen(false), []);

  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column', bgcolor: 'background.default', color: 'text.primary' }}>
      <SkipNavigationButton />
      <Box
        component="header"
        ref={headerRef}
        sx={{ position: fixedHeader ? 'sticky' : 'relative', top: 0, zIndex: (theme) => theme.zIndex.appBar }}
      >
        <ImpersonationBanner />
        <ConsoleAppBar
          onMenuButton={vertical ? toggleMenu : undefined}
          menuOpen={isPhone ? mobileMenuOpen : !preferences.collapseMenu}
          onCustomize={openCustomize}
        />
        {!vertical && (
          <Box sx={[menuColours(preferences.layoutType), { borderBottom: 1, borderColor: 'divider' }]}>
            <TopMenu />
          </Box>
        )}
      </Box>
      <Box sx={{ display: 'flex', flex: 1 }}>
        {vertical && (
          <ConsoleSidebar
            temporary={isPhone}
            mobileOpen={mobileMenuOpen}
            onMobileClose={closeMobileMenu}
            headerOffset={fixedHeader ? headerHeight : 0}
          />
        )}
        <Box component="main" id="main-content" sx={{ flex: 1, minWidth: 0, px: { xs: 1, sm: 2, md: 3 }, py: 2 }}>
          <Box sx={{ maxWidth: preferences.fullWidthLayout ? 'none' : CONTENT_MAX_WIDTH, mx: 'auto' }}>
            <AlertBar />
            <ContentErrorBoundary>
              <FilterRoomContext.Provider value={contentWidth}>
                <Suspense fallback={<PageLoading />}>{children}</Suspense>
              </FilterRoomContext.Provider>
            </ContentErrorBoundary>
          </Box>
        </Box>
      </Box>
      <CustomizeDrawer open={customizing} onClose={closeCustomize} />
      <ListPrimer />
    </Box>
  );
}
