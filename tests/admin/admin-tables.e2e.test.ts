import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { executeLocalSql } from '../../scripts/lib/local-server';
import { adminSessionPerFile, api, saveScreens, screenshotDir, uniqueEmail, waitUntil } from '../harness/e2e/admin-helpers';
import { confirmedSubscriber } from '../harness/e2e/admin-newsletter-helpers';
import { invited } from '../harness/e2e/admin-users-helpers';
import { baseUrl, DESKTOP, downloadedFile, SCREEN_SIZES, stack } from '../harness/e2e/browser';

// docs/product.md §6 "Tables a person reads": in every back-office table and list, at 1280 and at
// 390 px, no word is broken inside (an address or a link may wrap at its seams; a word never); and
// the e-mail log's rows open the message as it was sent (docs/product.md §7 "The e-mail log").

const session = adminSessionPerFile();

/** The back-office screens with tables or lists, and what shows that each has its data. */
const SCREENS: { route: string; ready: (page: Page) => Promise<void> }[] = [
  { route: '/admin', ready: visible('[data-testid="email-log-row"], [aria-label="Email log entries"] > li') },
  { route: '/admin/subscribers', ready: visible('[data-testid="subscriber-row"], [data-testid="subscriber-item"]') },
  { route: '/admin/chats', ready: visible('[data-testid="chat-session-row"], [data-testid="chat-session-item"]') },
  { route: '/admin/audit', ready: visible('[data-testid="audit-row"], [data-testid="audit-item"]') },
  { route: '/admin/content/history', ready: (page) => page.getByRole('button', { name: /^Restore version / }).first().waitFor() },
  { route: '/admin/users', ready: visible('[data-testid="user-row"]') },
  { route: '/admin/availability', ready: visible('[data-testid="weekday-grid"]') },
  { route: '/admin/newsletters', ready: visible('[data-testid="newsletter-draft"]') },
];

function visible(selector: string) {
  return (page: Page) => waitUntil(async () => (await page.locator(selector).filter({ visible: true }).count()) > 0, `${selector} on screen`, 20_000);
}

/**
 * The words (runs of letters, two or more) in the screen's tables and lists whose letters the browser
 * put on more than one line: each word's own box, measured with a Range, has fragments at two
 * different heights. An e-mail address may wrap only at its seams (after @, a dot, a hyphen), so its
 * runs of letters are words here too; a link or a path (a token with :// or /) is left out.
 */
async function brokenWords(page: Page, scope = 'main'): Promise<string[]> {
  return page.evaluate((scope) => {
    const found: string[] = [];
    const root = document.querySelector(scope);
    if (!root) return ['no ' + scope];
    const containers = [...root.querySelectorAll('table, ul, ol, dl')].filter((c) => !c.parentElement?.closest('table, ul, ol, dl'));
    /** The whitespace-delimited run around `index` in the node's parent's whole text (an address split by <wbr> is one run). */
    const tokenAround = (node: Text, index: number) => {
      const parent = node.parentElement!;
      const walker = document.createTreeWalker(parent, NodeFilter.SHOW_TEXT);
      let offset = 0;
      while (walker.nextNode() && walker.currentNode !== node) offset += (walker.currentNode as Text).data.length;
      const whole = parent.textContent ?? '';
      let start = offset + index;
      let end = start;
      while (start > 0 && !/\s/.test(whole[start - 1])) start--;
      while (end < whole.length && !/\s/.test(whole[end])) end++;
      return whole.slice(start, end);
    };
    for (const container of containers) {
      const walker = document.createTreeWalker(container, NodeFilter.SHOW_TEXT);
      while (walker.nextNode()) {
        const node = walker.currentNode as Text;
        if (!node.parentElement || node.parentElement.getClientRects().length === 0) continue;
        for (const match of node.data.matchAll(/\p{L}{2,}/gu)) {
          const token = tokenAround(node, match.index);
          if (/:\/\/|\//.test(token)) continue;
          const range = document.createRange();
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          const boxes = [...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0);
          if (boxes.length < 2) continue;
          const first = boxes[0];
          if (boxes.some((b) => Math.abs(b.top - first.top) > first.height / 2)) {
            const where = node.parentElement.closest('td, th, li, dd, dt')?.tagName.toLowerCase() ?? node.parentElement.tagName.toLowerCase();
            found.push(`"${match[0]}" (in "${token}", a ${where} of ${container.getAttribute('aria-label') ?? container.tagName.toLowerCase()})`);
          }
        }
      }
    }
    return found;
  }, scope);
}

/** Rows in the e-mail log straight in the stack's database: the statuses the local mailbox never gives (sent, failed, queued). */
function logRows(rows: { to: string; subject: string; kind: string; status: string; transport: string; error?: string; delivery?: string; text: string; html?: string; headers?: Record<string, string>; attachments?: unknown[] }[]) {
  const q = (value: string | undefined | null) => (value === undefined || value === null ? 'NULL' : `'${value.replaceAll("'", "''")}'`);
  const now = Date.now();
  const values = rows.map(
    (r, i) =>
      `(${q(r.to)}, ${q(r.subject)}, ${q(r.kind)}, ${q(r.status)}, ${q(r.transport)}, ${q(r.error)}, ${q(r.delivery)}, ${r.delivery ? now : 'NULL'}, ${q(r.text)}, ${q(r.html)}, ${q(r.headers && JSON.stringify(r.headers))}, ${q(r.attachments && JSON.stringify(r.attachments))}, ${q('Casey Client')}, ${q('office@northgatecpa.example')}, ${now + i}, ${now + i})`,
  );
  executeLocalSql(
    `INSERT INTO email_log ("to", subject, kind, status, transport, error, delivery_status, delivery_updated_at, text_body, html_body, headers, attachments, to_name, reply_to, created_at, updated_at) VALUES ${values.join(', ')};`,
    stack().persistTo,
  );
}

const INVITE = 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Northgate CPA//Tables test//EN\r\nEND:VCALENDAR\r\n';
const opened = { subject: `Your appointment is confirmed ${Date.now().toString(36)}`, to: uniqueEmail('casey-with-a-long-unbroken-mailbox-name') };

beforeAll(async () => {
  const { context } = session;
  // Something in every list: a message, a booking, subscribers, a chat, a staff invitation, a published change.
  await api(context, 'POST', '/api/contact', { name: 'Tables Visitor', email: uniqueEmail('tables-visitor'), phone: '412-555-0101', message: 'A message for the inbox.' });
  await confirmedSubscriber(context, 'Tables Reader');
  await api(context, 'POST', '/api/newsletter/subscribe', { email: uniqueEmail('tables-pending-reader-with-a-long-address'), name: 'Pending Reader' });
  await api(context, 'POST', '/api/chat', { message: 'What are your office hours?', sessionId: crypto.randomUUID() });
  // A long first question: the column it fills presses on the others (where "Messag/es" broke).
  const question = 'Do you prepare business tax returns for a small partnership that also has rental properties in two states, and could you tell me what documents to bring, how long it usually takes, and what it would cost for a first year client?';
  await api(context, 'POST', '/api/chat', { message: question, sessionId: crypto.randomUUID() });
  await invited(context, uniqueEmail('tables-staff'), 'Tables Staff');
  await api(context, 'POST', '/api/admin/newsletter/drafts', { subject: 'Tables draft', content: '<p>Draft</p>' });
  const content = await api<{ published: { version: number; content: { firm: { tagline: string } } }; draft: { updatedAt: string } | null }>(context, 'GET', '/api/admin/content');
  const edited = { ...content.published.content, firm: { ...content.published.content.firm, tagline: `${content.published.content.firm.tagline} (tables)` } };
  const saved = await api<{ revision: number }>(context, 'PUT', '/api/admin/content/draft', { basedOn: content.published.version, draftUpdatedAt: content.draft?.updatedAt ?? null, content: edited });
  await api(context, 'POST', '/api/admin/content/publish', { basedOn: content.published.version, revision: saved.revision });
  // The e-mail log: 'stored' rows from the mailbox above, and one of each other status, newest.
  logRows([
    { to: uniqueEmail('queued-reader'), subject: 'Northgate News: year-end tax planning, retirement contributions and the new filing deadlines for small businesses', kind: 'newsletter', status: 'queued', transport: 'mailchannels', text: 'The December issue.' },
    {
      to: uniqueEmail('bounced-client'),
      subject: 'We received your message',
      kind: 'contact-confirmation',
      status: 'failed',
      transport: 'mailchannels',
      error: 'MailChannels answered 400: the recipient address was refused by the receiving server (550 5.1.1 mailbox unavailable)',
      text: 'Thank you for your message.',
    },
    {
      to: opened.to,
      subject: opened.subject,
      kind: 'appointment-status',
      status: 'sent',
      transport: 'mailchannels',
      delivery: 'delivered',
      text: 'Your appointment is confirmed.\nCancel: https://northgatecpa.example/appointment/cancel?token=(link sent, not kept)',
      // A script that would tell the page it ran, and a remote image: neither may happen.
      html: `<p>Your appointment is <b>confirmed</b>.</p><p><a href="https://northgatecpa.example/appointment/cancel?token=(link sent, not kept)">Cancel</a></p><script>parent.postMessage('script-ran', '*')</script><img src="https://tracker.example/pixel.gif" alt="">`,
      headers: { 'Auto-Submitted': 'auto-generated' },
      attachments: [{ filename: 'appointment.ics', contentType: 'text/calendar; method=REQUEST', content: Buffer.from(INVITE).toString('base64') }],
    },
  ]);
}, 180_000);

describe('tables a person reads', () => {
  it.each(SCREENS.map((s) => [s.route, s] as const))('%s breaks no word inside at 1280 or 390 px', async (_route, screen) => {
    const page = await session.context.newPage();
    try {
      const problems: string[] = [];
      for (const [width, viewport] of SCREEN_SIZES) {
        await page.setViewportSize(viewport);
        await page.goto(screen.route);
        await page.getByRole('heading', { level: 1 }).waitFor();
        await screen.ready(page);
        problems.push(...(await brokenWords(page)).map((p) => `${width} px: ${p}`));
        if (screen.route === '/admin' || screen.route === '/admin/chats') await saveScreens(page, `emaillog-table${screen.route.replaceAll('/', '-')}-${width}`);
      }
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  }, 120_000);

  it.each(SCREEN_SIZES)("the e-mail log opens a message as sent at %s px: headers, text, HTML in a sandbox, its file, the links not kept", async (width, viewport) => {
    const page = await session.context.newPage();
    try {
      const messages: string[] = [];
      await page.exposeFunction('recordFrameMessage', (data: string) => messages.push(data));
      await page.addInitScript(() => window.addEventListener('message', (event) => void (window as unknown as { recordFrameMessage: (d: string) => void }).recordFrameMessage(String(event.data))));
      const remote: string[] = [];
      page.on('request', (request) => {
        if (!request.url().startsWith(baseUrl())) remote.push(request.url());
      });
      await page.setViewportSize(viewport);
      await page.goto('/admin');
      // From the keyboard: the row's View button.
      const view = page.getByRole('button', { name: `View the e-mail to ${opened.to}: ${opened.subject}` }).filter({ visible: true });
      await view.focus();
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: `E-mail: ${opened.subject}` });
      await dialog.waitFor();
      const headers = dialog.getByRole('definition');
      await headers.first().waitFor();
      const text = await dialog.getByTestId('email-message').innerText();
      // From: the firm's name (none was logged with the row) and the one sender address.
      expect(text).toMatch(/From\s+\S.* <[^>\s]+@[^>\s]+>/);
      expect(text).toContain(`Casey Client <${opened.to}>`);
      expect(text).toMatch(/Reply-To\s+office@northgatecpa\.example/);
      expect(text).toMatch(new RegExp(`Subject\\s+${opened.subject}`));
      // The date in the firm's time, as the log's own rows show it.
      expect(text).toMatch(/Date\s+\w{3} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s?[AP]M/);
      expect(text).toMatch(/Auto-Submitted\s+auto-generated/);
      expect(text).toContain('sent');
      expect(text).toContain('Sent through MailChannels');
      expect(text).toContain('Reported by MailChannels: delivered');
      expect(await dialog.getByTestId('email-text').innerText()).toContain('Cancel: https://northgatecpa.example/appointment/cancel?token=(link sent, not kept)');
      expect(await dialog.getByTestId('links-not-kept').innerText()).toMatch(/link sent, not kept.*acts for the recipient/s);

      // The HTML in a frame with every sandbox restriction: shown, no script run, nothing fetched from elsewhere.
      const frame = dialog.getByTestId('email-html');
      expect(await frame.getAttribute('sandbox')).toBe('');
      const body = page.frameLocator('[data-testid="email-html"]').locator('body');
      await body.getByText('Your appointment is').waitFor();
      expect(await body.locator('b').innerText()).toBe('confirmed');
      expect(messages).toEqual([]);
      expect(remote).toEqual([]);
      // The remote image never reaches the frame's parser (its preload scanner could beat the policy).
      expect(await body.locator('img').getAttribute('src')).toBeNull();
      expect(await body.locator('img').getAttribute('data-blocked-src')).toBe('https://tracker.example/pixel.gif');
      // Tab never stops inside the frame (another origin, where the dialog's Escape would not reach).
      const links = body.locator('a[href]');
      expect(await links.count()).toBeGreaterThan(0);
      expect(await links.evaluateAll((all) => all.map((a) => a.getAttribute('tabindex')))).toEqual(Array.from({ length: await links.count() }, () => '-1'));

      // The invite listed with its type and size, and downloaded as it was sent.
      const file = dialog.getByTestId('email-message-attachment');
      expect(await file.innerText()).toMatch(new RegExp(`appointment\\.ics\\s+text/calendar, ${INVITE.length} B`));
      const [download] = await Promise.all([page.waitForEvent('download'), file.getByRole('link').click()]);
      expect(download.suggestedFilename()).toBe('appointment.ics');
      expect((await downloadedFile(download)).toString()).toBe(INVITE);

      expect(await brokenWords(page, '[role="dialog"]')).toEqual([]);
      if (screenshotDir) {
        // The dialog is fixed to the viewport: the viewport as the admin sees it, then scrolled to its frame and files.
        await dialog.getByTestId('email-message').evaluate((el) => el.scrollTo(0, 0));
        await page.screenshot({ path: `${screenshotDir}/emaillog-message-open-${width}.png` });
        await frame.scrollIntoViewIfNeeded();
        await page.screenshot({ path: `${screenshotDir}/emaillog-message-open-${width}-frame.png` });
      }
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      if (viewport === DESKTOP) {
        // A click anywhere on the row opens it too.
        await page.getByTestId('email-log-row').filter({ hasText: opened.subject }).getByText('appointment-status').click();
        await dialog.waitFor();
        await dialog.getByRole('button', { name: 'Done', exact: true }).click();
        await dialog.waitFor({ state: 'detached' });
      }
    } finally {
      await page.close();
    }
  }, 120_000);
});
