import { useEffect, useRef, useState } from 'react';
import { trackButtonClick } from '../../lib/analytics';
import { hasConsent, storeConsent } from '../../lib/consent';
import { loadTagManager } from './consent';

/** The banner's height while shown, read by web/styles.css (scroll padding and room below the page). */
const HEIGHT_VARIABLE = '--cookie-banner-height';

/**
 * docs/product.md §12: fixed at the bottom of every page until the visitor accepts. Rendered only
 * after mount (the prerendered HTML cannot know the visitor's choice), so it never causes a
 * hydration mismatch, and as a fixed overlay it never shifts the page's layout. While it is shown
 * the page reserves its height (WCAG 2.4.11, docs/product.md "Accessibility"): the browser scrolls
 * a focused element above it, and the page's end can scroll clear of it.
 */
export function CookieBanner() {
  const [visible, setVisible] = useState(false);
  const ref = useRef<HTMLElement>(null);

  useEffect(() => {
    if (hasConsent()) void loadTagManager();
    else setVisible(true);
  }, []);

  useEffect(() => {
    const banner = ref.current;
    if (!visible || !banner) return;
    const root = document.documentElement.style;
    const reserve = () => root.setProperty(HEIGHT_VARIABLE, `${Math.ceil(banner.getBoundingClientRect().height)}px`);
    reserve();
    const observer = new ResizeObserver(reserve);
    observer.observe(banner);
    return () => {
      observer.disconnect();
      root.removeProperty(HEIGHT_VARIABLE);
    };
  }, [visible]);

  if (!visible) return null;

  const accept = () => {
    storeConsent();
    setVisible(false);
    trackButtonClick('Accept Cookies', 'Cookie Consent');
    void loadTagManager();
  };

  return (
    <section
      ref={ref}
      aria-label="Cookie consent"
      className="fixed inset-x-0 bottom-0 z-30 border-t border-slate-200 bg-white/95 shadow-[0_-4px_16px_rgba(15,42,74,0.12)] backdrop-blur"
    >
      {/* Right padding keeps Accept clear of the chat button, which floats above the banner. */}
      <div className="mx-auto flex max-w-7xl flex-col gap-3 py-4 pl-4 pr-24 sm:flex-row sm:items-center sm:justify-between sm:pl-6 sm:pr-28 lg:pl-8">
        <p className="text-sm text-slate-700">
          We use cookies to understand how visitors use our site and to improve it. Read our{' '}
          <a href="/privacy-policy" className="font-medium text-brand-700 underline">
            Privacy Policy
          </a>
          .
        </p>
        <button
          type="button"
          onClick={accept}
          className="inline-flex h-10 shrink-0 items-center justify-center self-start rounded-md bg-brand-700 px-5 sm:self-auto text-sm font-semibold text-white hover:bg-brand-800"
        >
          Accept
        </button>
      </div>
    </section>
  );
}
