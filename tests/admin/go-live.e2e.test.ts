import { describe, expect, it } from 'vitest';
import { adminSessionPerFile, screenshotDir, signedInTab } from '../harness/e2e/admin-helpers';
import { DESKTOP, PHONE } from '../harness/e2e/browser';

// /admin/go-live (docs/product.md §6.10): the owner's go-live checklist against the local stack,
// which is plain HTTP on localhost with no MailChannels, Turnstile or DNS: so it shows each state
// (the session secret done, HTTPS missing, the DNS records not checked locally), each in words.

const admin = adminSessionPerFile('/admin');

describe('the go-live checklist', () => {
  it('lists every requirement with its state in words and what to do, and checks again on Re-check', async () => {
    const { page, errors } = await signedInTab(admin, '/admin');
    try {
      await page.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'Go-live' }).click();
      await page.getByRole('heading', { level: 1, name: 'Go-live checklist' }).waitFor();
      const list = page.getByRole('list', { name: 'Go-live requirements' });
      await list.waitFor();
      const row = (title: string) => list.getByRole('listitem', { name: title });
      const rows = await list.getByRole('listitem').count();
      expect(rows).toBe(14);
      await expect(row('Session signing secret (JWT_SECRET)').getByText('Done', { exact: true }).isVisible()).resolves.toBe(true);
      const https = row('Served over HTTPS');
      expect(await https.getByText('Missing', { exact: true }).isVisible()).toBe(true);
      expect(await https.textContent()).toMatch(/To do: Open the site through its https:\/\/ address/);
      const spf = row('SPF record');
      expect(await spf.getByText('Could not check', { exact: true }).isVisible()).toBe(true);
      expect(await spf.textContent()).toContain('Looked up only on the live site');
      // A to-do that is done in the back office links to its screen.
      expect(await row('Two-factor sign-in required').getByRole('link', { name: 'Open Users, Security settings' }).getAttribute('href')).toBe('/admin/users');

      // Re-check reads the list again from the worker.
      let reads = 0;
      page.on('request', (request) => {
        if (new URL(request.url()).pathname === '/api/admin/go-live') reads++;
      });
      await page.getByRole('button', { name: 'Re-check' }).click();
      await expect.poll(() => reads).toBe(1);
      await page.getByRole('button', { name: 'Re-check' }).and(page.locator(':enabled')).waitFor();
      expect(await list.getByRole('listitem').count()).toBe(14);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 120_000);
});

describe.runIf(screenshotDir)('screenshots', () => {
  it('of /admin/go-live at 1280 and 390 px', async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      const { page } = await signedInTab(admin, '/admin/go-live', viewport);
      try {
        await page.getByRole('list', { name: 'Go-live requirements' }).waitFor();
        await page.screenshot({ path: `${screenshotDir}/checklist-go-live-${viewport.width}.png`, fullPage: true });
        // The first screenful as well: a phone's full page is too tall to read at once.
        await page.screenshot({ path: `${screenshotDir}/checklist-go-live-${viewport.width}-top.png` });
      } finally {
        await page.close();
      }
    }
  }, 120_000);
});
