import { useEffect } from 'react';
import { Outlet, ScrollRestoration, useLocation } from 'react-router';
import { trackPageview } from '../lib/analytics';
import { SiteFrame } from './site-frame';

/**
 * The route table's root: the site's frame (web/app/site-frame.tsx) around the route's page. In the
 * single-page app (client-only screens), a pageview per route change; a prerendered page counts
 * its own (web/islands.tsx).
 */
export function RootLayout() {
  const { pathname } = useLocation();
  useEffect(() => {
    trackPageview(pathname);
  }, [pathname]);

  return (
    <SiteFrame pathname={pathname} after={<ScrollRestoration />}>
      <Outlet />
    </SiteFrame>
  );
}
