import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { alerts } from '../../providers/alerts';
import { analyticsUserId, getAnalytics } from '../../providers/analytics';
import { registerNavigator } from '../../providers/navigation';

/**
 * What happens on every route change (spec section 2): alerts are cleared, the view scrolls to
 * the top and a page view is sent. Also lends react-router's navigate to code outside React.
 */
export function RouteEffects() {
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  // StrictMode runs mount effects twice in development: one page view per page, still.
  const lastPageView = useRef<string | null>(null);

  useEffect(() => {
    registerNavigator((path, options) => navigate(path, options));
    return () => registerNavigator(null);
  }, [navigate]);

  useEffect(() => {
    alerts.routeChanged(pathname);
    window.scrollTo(0, 0);
    const page = `${pathname}${search}`;
    if (lastPageView.current !== page) {
      lastPageView.current = page;
      getAnalytics().pageView(page, analyticsUserId());
    }
  }, [pathname, search]);

  return null;
}
