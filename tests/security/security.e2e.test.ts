import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { browserPerFile } from '../harness/e2e/admin-helpers';
import { baseUrl, newPage } from '../harness/e2e/browser';

const shared = browserPerFile();

/** A raw HTTP GET that keeps the path exactly as written (fetch would normalise the dots). */
function rawGet(path: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(baseUrl());
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path, method: 'GET' }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('content security policy', () => {
  it('blocks an injected inline script and reports the violation', async () => {
    const { page, context } = await newPage(shared.browser);
    await page.goto('/');
    const outcome = await page.evaluate(
      () =>
        new Promise<{ violated: string | null; ran: boolean }>((resolve) => {
          let violated: string | null = null;
          document.addEventListener('securitypolicyviolation', (event) => {
            violated = event.violatedDirective;
          });
          const script = document.createElement('script');
          script.textContent = 'window.__injected = true;';
          document.body.appendChild(script);
          setTimeout(() => resolve({ violated, ran: Boolean((window as unknown as { __injected?: boolean }).__injected) }), 300);
        }),
    );
    expect(outcome.ran).toBe(false);
    expect(outcome.violated).toMatch(/script-src/);
    await context.close();
  });

  it('forbids framing the site', async () => {
    const res = await fetch(`${baseUrl()}/about`);
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-frame-options')).toBe('DENY');
  });
});

describe('opener policy (docs/decisions/0010-opener-policy-on-the-back-office.md)', () => {
  /** Opens `path` from a page of another origin and says whether that page still holds the window. */
  async function openerKeepsHandle(path: string): Promise<boolean> {
    const { page, context } = await newPage(shared.browser);
    const elsewhere = 'https://elsewhere.example/';
    await page.route(elsewhere, (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>Elsewhere</title><p>Another site</p>' }));
    await page.goto(elsewhere);
    const [popup] = await Promise.all([
      context.waitForEvent('page'),
      page.evaluate((url) => {
        (window as unknown as { opened: Window | null }).opened = window.open(url, '_blank');
      }, `${baseUrl()}${path}`),
    ]);
    await popup.waitForLoadState('load');
    // A window whose opener policy severed it reads as closed to the page that opened it.
    const kept = await page.evaluate(() => {
      const opened = (window as unknown as { opened: Window | null }).opened;
      return opened !== null && !opened.closed;
    });
    await context.close();
    return kept;
  }

  it('cuts a cross-origin opener off the admin panel', async () => {
    const res = await fetch(`${baseUrl()}/admin`);
    expect(res.headers.get('cross-origin-opener-policy')).toBe('same-origin');
    expect(await openerKeepsHandle('/admin')).toBe(false);
  });

  it('sends none with the public pages, which an opener may keep', async () => {
    const res = await fetch(`${baseUrl()}/contact`);
    expect(res.headers.get('cross-origin-opener-policy')).toBeNull();
    expect(await openerKeepsHandle('/contact')).toBe(true);
  });
});

describe('path traversal on asset paths', () => {
  it.each([
    '/../wrangler.jsonc',
    '/assets/../../wrangler.jsonc',
    '/%2e%2e/%2e%2e/wrangler.jsonc',
    '/assets/..%2f..%2fpackage.json',
    '/..%5c..%5c.dev.vars',
    '/.dev.vars',
    '/.git/config',
  ])('%s serves no project file', async (path) => {
    const res = await rawGet(path);
    expect(res.status).toBeLessThan(500);
    expect(res.body).not.toMatch(/compatibility_date|"devDependencies"|JWT_SECRET|\[core\]/);
  });
});
