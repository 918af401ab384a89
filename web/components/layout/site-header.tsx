import { Menu, X } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { mainNavigation } from '#core/content/navigation';
import { trackedClick } from '../../lib/analytics';
import { NewTabLink } from './page-parts';

/** What the header shows of the published content (an island's JSON props). */
export interface HeaderContent {
  firmName: string;
  payNow: string;
  clientPortal: string;
}

const linkClass = (isActive: boolean) =>
  `rounded-md px-3 py-2 text-sm font-medium transition-colors ${
    isActive ? 'bg-brand-50 text-brand-700 underline decoration-2 underline-offset-8' : 'text-slate-700 hover:text-brand-700'
  }`;

// On a phone the menu links are full-width rows with comfortable touch targets (44 px).
const mobileLinkClass = (isActive: boolean) =>
  `block rounded-md border-l-4 px-3 py-3 text-base font-medium ${
    isActive ? 'border-brand-700 bg-brand-50 text-brand-700' : 'border-transparent text-slate-800 hover:bg-slate-50'
  }`;

/**
 * Pay Now and Client Portal (new tabs), then Get Started: in the desktop bar, with hover shades, and
 * in the phone menu, which they close.
 */
function HeaderActions({ content, closeMenu }: { content: HeaderContent; closeMenu?: () => void }) {
  // The outside links beside the menu, in both the desktop bar and the phone menu.
  const externalActions = [
    { label: 'Pay Now', href: content.payNow },
    { label: 'Client Portal', href: content.clientPortal },
  ];
  const hover = closeMenu ? '' : ' hover:bg-brand-50';
  return (
    <>
      {externalActions.map((action) => (
        <NewTabLink key={action.label} href={action.href} onClick={closeMenu} {...trackedClick(action.label)} className={`rounded-md px-3 py-2 text-sm font-medium text-brand-700${hover}`}>
          {action.label}
        </NewTabLink>
      ))}
      <a
        href="/contact"
        onClick={closeMenu}
        {...trackedClick('Get Started')}
        className={`rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white${closeMenu ? '' : ' hover:bg-brand-800'}`}
      >
        Get Started
      </a>
    </>
  );
}

/** The menu's link to a page: highlighted, and announced as the current page, on that page. */
function MenuLink({ to, pathname, className, onClick, children }: { to: string; pathname: string; className: (isActive: boolean) => string; onClick?: () => void; children: string }) {
  const isActive = to === '/' ? pathname === '/' : pathname === to || pathname.startsWith(`${to}/`);
  return (
    <a href={to} className={className(isActive)} aria-current={isActive ? 'page' : undefined} onClick={onClick}>
      {children}
    </a>
  );
}

/**
 * docs/product.md §1.2: logo, menu with the current route highlighted, Pay Now / Client Portal, Get
 * Started. An island (web/app/root-layout.tsx): `pathname` is the page's path, `content` the firm's name and links.
 */
export function SiteHeader({ pathname, content }: { pathname: string; content: HeaderContent }) {
  const [menuOpen, setMenuOpen] = useState(false);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const closeMenu = () => setMenuOpen(false);

  // Keyboard users close the open menu with Escape and land back on the toggle button.
  useEffect(() => {
    if (!menuOpen) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setMenuOpen(false);
      toggleRef.current?.focus();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [menuOpen]);

  // Sticky below a content preview's bar, which sets --preview-bar-height (worker/services/content/preview-bar.ts).
  return (
    <header className="sticky top-[var(--preview-bar-height,0px)] z-40 border-b border-slate-200 bg-white/95 backdrop-blur">
      <div className="mx-auto flex h-header max-w-7xl items-center justify-between gap-4 px-4 sm:px-6 lg:px-8">
        <a href="/" className="flex items-center gap-3" onClick={closeMenu}>
          <img src="/logo.svg" alt={`${content.firmName} logo - professional tax and accounting services`} width={48} height={48} className="h-12 w-12" />
          <span className="text-xl font-bold text-brand-800">{content.firmName}</span>
        </a>

        <nav aria-label="Main" className="hidden lg:block">
          <ul className="flex items-center gap-1">
            {mainNavigation.map((item) => (
              <li key={item.to}>
                <MenuLink to={item.to} pathname={pathname} className={linkClass}>
                  {item.label}
                </MenuLink>
              </li>
            ))}
          </ul>
        </nav>

        <div className="hidden items-center gap-2 lg:flex">
          <HeaderActions content={content} />
        </div>

        <button
          ref={toggleRef}
          type="button"
          className="rounded-md p-2 text-slate-700 hover:bg-slate-100 lg:hidden"
          aria-label="Toggle menu"
          aria-expanded={menuOpen}
          aria-controls="mobile-menu"
          onClick={() => setMenuOpen((open) => !open)}
        >
          {menuOpen ? <X className="h-6 w-6" aria-hidden="true" /> : <Menu className="h-6 w-6" aria-hidden="true" />}
        </button>
      </div>

      {menuOpen && (
        <nav id="mobile-menu" aria-label="Mobile" className="border-t border-slate-200 bg-white lg:hidden">
          <ul className="flex flex-col gap-1 px-4 py-3">
            {mainNavigation.map((item) => (
              <li key={item.to}>
                <MenuLink to={item.to} pathname={pathname} className={mobileLinkClass} onClick={closeMenu}>
                  {item.label}
                </MenuLink>
              </li>
            ))}
            <li className="mt-2 flex flex-wrap gap-2 border-t border-slate-200 pt-3">
              <HeaderActions content={content} closeMenu={closeMenu} />
            </li>
          </ul>
        </nav>
      )}
    </header>
  );
}
