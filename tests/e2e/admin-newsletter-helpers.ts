import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { BrowserContext } from 'playwright-core';
import { inject } from 'vitest';
import { api, uniqueEmail, waitUntil } from './admin-helpers';
import { baseUrl } from './browser';

/**
 * The local "mailbox": with no MailChannels key the server keeps every e-mail in its D1 e-mail
 * log (the outbox transport). This reads the newest message to an address from the run's
 * SQLite file, the way a person would open their inbox.
 */
export function latestEmailBody(to: string, kind: string): string | undefined {
  const dir = join(inject('persistTo'), 'v3', 'd1', 'miniflare-D1DatabaseObject');
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.sqlite'))) {
    const db = new DatabaseSync(join(dir, file), { readOnly: true });
    try {
      const hasLog = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'email_log'").get();
      if (!hasLog) continue;
      const row = db.prepare('SELECT text_body AS body FROM email_log WHERE "to" = ? AND kind = ? ORDER BY id DESC LIMIT 1').get(to, kind) as
        | { body: string }
        | undefined;
      if (row) return row.body;
    } finally {
      db.close();
    }
  }
  return undefined;
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
