import { Box, useMediaQuery, type Theme } from '@mui/material';
import { Suspense, useCallback, useEffect, useLayoutEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { SkipNavigationButton, useTheme } from 'react-admin';
import { AlertBar } from '../../shell/AlertBar';
import { ImpersonationBanner } from '../ImpersonationBanner';
import { ListPrimer } from '../../framework/list/ListPrimer';
import { TopMenu } from '../menu/TopMenu';
import { useLayoutPreferences } from '../preferences/LayoutPreferencesContext';
import { CONTENT_MAX_WIDTH, menuColours } from './chrome';
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
              <Suspense fallback={<PageLoading />}>{children}</Suspense>
            </ContentErrorBoundary>
          </Box>
        </Box>
      </Box>
      <CustomizeDrawer open={customizing} onClose={closeCustomize} />
      <ListPrimer />
    </Box>
  );
}
