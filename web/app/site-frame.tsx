import type { ReactNode } from 'react';
import { ChatLauncher } from '../features/chat/components/chat-launcher';
import { CookieBanner } from '../features/cookie-consent/cookie-banner';
import { island } from '../islands/island';
import { LazyToaster } from '../components/layout/lazy-toaster';
import { useContent } from '../lib/content';
import { SiteFooter } from './site-footer';
import { SiteHeader } from '../components/layout/site-header';

// The frame's interactive parts are islands (web/islands/island.tsx): on a prerendered page they
// are the only parts hydrated; in the single-page app they render in place.
const HeaderIsland = island('header', SiteHeader);
const ChatIsland = island('chat', ChatLauncher);
const ToasterIsland = island('toaster', LazyToaster);
const CookieBannerIsland = island('cookie-banner', CookieBanner);

/**
 * The shared frame of every page: header, content, footer, toasts, cookie banner. Without a router:
 * the single-page app's root layout (web/app/root-layout.tsx) and the worker's page renderer
 * (web/entry-worker.tsx) both place the page in it.
 */
export function SiteFrame({ pathname, children, after }: { pathname: string; children: ReactNode; after?: ReactNode }) {
  const { firm, chat } = useContent();
  return (
    <div className="flex min-h-screen flex-col">
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-4 focus:top-4 focus:z-50 focus:rounded focus:bg-white focus:px-4 focus:py-2 focus:text-brand-800">
        Skip to content
      </a>
      <HeaderIsland pathname={pathname} content={{ firmName: firm.name, payNow: firm.links.payNow, clientPortal: firm.links.clientPortal }} />
      <main id="main" className="flex-1">
        {children}
      </main>
      <SiteFooter />
      <ChatIsland firmName={firm.name} questionGroups={chat.suggestedQuestionGroups} clientPortal={firm.links.clientPortal} />
      <ToasterIsland />
      <CookieBannerIsland />
      {after}
    </div>
  );
}
