import { useEffect } from 'react';
import { Outlet, ScrollRestoration, useLocation } from 'react-router';
import { trackPageview } from '../../lib/analytics';
import { ChatLauncher } from '../../features/chat/components/chat-launcher';
import { CookieBanner } from '../../features/cookie-consent/cookie-banner';
import { LazyToaster } from './lazy-toaster';
import { SiteFooter } from './site-footer';
import { SiteHeader } from './site-header';

/** The shared frame of every page: header, content, footer, toasts, cookie banner; a pageview per route change. */
export function RootLayout() {
  const { pathname } = useLocation();
  useEffect(() => {
    trackPageview(pathname);
  }, [pathname]);

  return (
    <div className="flex min-h-screen flex-col">
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-4 focus:top-4 focus:z-50 focus:rounded focus:bg-white focus:px-4 focus:py-2 focus:text-brand-800">
        Skip to content
      </a>
      <SiteHeader />
      <main id="main" className="flex-1">
        <Outlet />
      </main>
      <SiteFooter />
      <ChatLauncher />
      <LazyToaster />
      <CookieBanner />
      <ScrollRestoration />
    </div>
  );
}
