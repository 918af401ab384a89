import type { BrowserContext } from 'playwright-core';
import { latestMail, latestMailText } from '../local-mailbox';
import { api, uniqueEmail, waitUntil } from './admin-helpers';
import { baseUrl, stack } from './browser';

/** The text of the newest e-mail of this kind to this address in the stack's mailbox (tests/harness/local-mailbox.ts). */
export function latestEmailBody(to: string, kind: string): string | undefined {
  return latestMailText(stack().mailDir, to, kind);
}

/** The newest e-mail of this kind to this address in the stack's mailbox, whole (headers, HTML, attachments). */
export function latestEmail(to: string, kind: string) {
  return latestMail(stack().mailDir, to, kind);
}

/**
 * A subscriber who signed up through the public API, opened the confirmation link from their
 * e-mail and pressed its Confirm button, so they are active (double opt-in).
 */
export async function confirmedSubscriber(context: BrowserContext, name: string): Promise<{ email: string }> {
  const email = uniqueEmail('reader');
  await api(context, 'POST', '/api/newsletter/subscribe', { email, name });
  let body: string | undefined;
  await waitUntil(async () => (body = latestEmailBody(email, 'newsletter-confirmation')) !== undefined, 'the confirmation e-mail');
  const link = /https?:\/\/\S+\/newsletter\/confirm\?token=[^\s"<>]+/.exec(body!)?.[0];
  if (!link) throw new Error(`no confirmation link in: ${body}`);
  const visitor = await context.browser()!.newContext();
  try {
    const page = await visitor.newPage();
    // The e-mail links to the public site address (SITE_URL); in this run the site is at baseUrl.
    const url = new URL(link);
    await page.goto(`${baseUrl()}${url.pathname}${url.search}`);
    // Opening the link changes nothing; its page's button confirms.
    await page.getByRole('button', { name: 'Confirm subscription' }).click();
    await page.waitForURL((u) => u.pathname === '/newsletter/confirmed');
  } finally {
    await visitor.close();
  }
  await waitUntil(
    async () => (await api<{ email: string; active: string }[]>(context, 'GET', '/api/admin/subscribers')).some((s) => s.email === email && s.active === 'true'),
    'the subscriber to be active',
  );
  return { email };
}
