import { request } from 'node:http';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, launchBrowser, newPage } from './browser';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

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
    const { page, context } = await newPage(browser);
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

describe('path traversal on asset paths', () => {
  it.each([
    '/../wrangler.toml',
    '/assets/../../wrangler.toml',
    '/%2e%2e/%2e%2e/wrangler.toml',
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
