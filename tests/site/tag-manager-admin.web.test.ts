// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// The admin pages are first-party only (docs/product.md §12): Tag Manager never loads on /admin, and once it ran
// on a public page, a link to /admin opens a fresh document instead of an in-app navigation.

const gtmScripts = () => [...document.querySelectorAll('script')].filter((s) => s.src.includes('googletagmanager.com'));

async function freshConsentModule() {
  vi.resetModules();
  return import('../../web/features/cookie-consent/consent');
}

beforeEach(() => {
  window.localStorage.setItem('cookieConsent', 'true');
  vi.stubGlobal('fetch', async () => new Response(JSON.stringify({ gtmId: 'GTM-TEST123' }), { headers: { 'content-type': 'application/json' } }));
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  for (const script of gtmScripts()) script.remove();
  document.body.innerHTML = '';
  window.history.replaceState(null, '', '/');
});

describe('Tag Manager and the admin pages', () => {
  it('loads on a public page after consent (the control case)', async () => {
    window.history.replaceState(null, '', '/services');
    const { loadTagManager } = await freshConsentModule();
    await loadTagManager();
    expect(gtmScripts()).toHaveLength(1);
  });

  it('never loads on /admin, even with consent and a configured container', async () => {
    for (const path of ['/admin', '/admin/login', '/admin/subscribers']) {
      window.history.replaceState(null, '', path);
      const { loadTagManager, tagManagerInDocument } = await freshConsentModule();
      await loadTagManager();
      expect(gtmScripts(), path).toHaveLength(0);
      expect(tagManagerInDocument(), path).toBe(false);
    }
  });

  it('after it ran on a public page, a link to /admin is a full page load, not an in-app navigation', async () => {
    window.history.replaceState(null, '', '/');
    const { loadTagManager } = await freshConsentModule();
    await loadTagManager();
    expect(gtmScripts()).toHaveLength(1);
    const assigned: string[] = [];
    const assign = vi.spyOn(window.location, 'assign').mockImplementation((url: string | URL) => void assigned.push(String(url)));
    const routerSaw: string[] = [];
    document.body.addEventListener('click', (event) => routerSaw.push((event.target as HTMLAnchorElement).pathname));
    document.body.innerHTML = '<a href="/admin/login">Admin</a><a href="/contact">Contact</a>';
    const [admin, contact] = [...document.querySelectorAll('a')];

    expect(admin.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 }))).toBe(false);
    expect(assigned).toEqual([`${window.location.origin}/admin/login`]);
    // A public link stays the router's.
    contact.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 }));
    expect(routerSaw).toEqual(['/contact']);
    expect(assign).toHaveBeenCalledTimes(1);
  });
});
