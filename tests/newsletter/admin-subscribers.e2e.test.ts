import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { downloadedFile, newPage, SCREEN_SIZES } from '../harness/e2e/browser';
import { adminSessionPerFile, api, expectToastSaying, saveScreens, screenshotDir, signedInTab, signInThroughCard, uniqueEmail, waitUntil } from '../harness/e2e/admin-helpers';
import { confirmedSubscriber } from '../harness/e2e/admin-newsletter-helpers';
import { parseCsv } from '../harness/web/csv-reader';

// /admin/subscribers driven as the administrator drives it, against the real local stack.

type Subscriber = {
  id: number;
  email: string;
  name: string | null;
  subscriptionDate: string;
  active: 'true' | 'false';
  status: 'active' | 'pending' | 'unsubscribed' | 'bounced' | 'complained';
  suppressionReason: 'bounced' | 'complained' | null;
  suppressionDetail: string | null;
  suppressedAt: string | null;
};

const admin = adminSessionPerFile('/admin/subscribers');

async function subscribe(context: BrowserContext, email: string, name?: string) {
  await api(context, 'POST', '/api/newsletter/subscribe', name === undefined ? { email } : { email, name });
}

const row = (page: Page, email: string) => page.getByTestId('subscriber-row').filter({ hasText: email });

/** Searches the list as a person does: the text in the box, then Enter (the server searches). */
async function searchFor(page: Page, text: string) {
  const box = page.getByRole('searchbox', { name: 'Search subscribers' });
  await box.fill(text);
  await box.press('Enter');
}

/** Adds people through the CSV import with their consent already given: active, nobody is mailed. */
async function imported(context: BrowserContext, emails: string[]) {
  const { id } = await api<{ id: number }>(context, 'POST', '/api/admin/subscriber-imports', { fileName: 'paging.csv' });
  await api(context, 'POST', '/api/admin/subscriber-imports/rows', { importId: id, rows: emails.map((email, i) => ({ line: i + 2, email, name: `Paging Reader ${i}` })) });
  await api(context, 'POST', `/api/admin/subscriber-imports/${id}/confirm`, { consent: 'given', consentConfirmed: true });
  await api(context, 'POST', `/api/admin/subscriber-imports/${id}/run`);
}

/** Two suppressed addresses, as the provider's events leave them (the list's API shape). */
function suppressedSubscribers(): Subscriber[] {
  const base = { name: null, active: 'false' as const, subscriptionDate: '2026-10-02T14:00:00.000Z' };
  return [
    { ...base, id: 900_001, email: 'bounced.reader@example.com', name: 'Bo Unce', status: 'bounced', suppressionReason: 'bounced', suppressionDetail: '550 5.1.1 mailbox does not exist', suppressedAt: '2026-11-03T15:30:00.000Z' },
    { ...base, id: 900_002, email: 'spam.reader@example.com', status: 'complained', suppressionReason: 'complained', suppressionDetail: null, suppressedAt: '2026-11-04T15:30:00.000Z' },
  ];
}

/** The screen's search route, with or without a query string. */
const isSearch = (url: URL) => url.pathname === '/api/admin/subscribers/search';

/**
 * The real list and page of the search, with the suppressed addresses on top (the webhook that
 * suppresses is tested elsewhere).
 */
async function withSuppressed(page: Page) {
  await page.route('**/api/admin/subscribers', async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, json: [...suppressedSubscribers(), ...((await response.json()) as Subscriber[])] });
  });
  await page.route(isSearch, async (route) => {
    const response = await route.fetch();
    const found = (await response.json()) as { items: Subscriber[]; total: number };
    await route.fulfill({ response, json: { ...found, items: [...suppressedSubscribers(), ...found.items], total: found.total + 2 } });
  });
}

async function withoutSuppressed(page: Page) {
  await page.unroute('**/api/admin/subscribers');
  await page.unroute(isSearch);
}

/**
 * The statistics' labels ("Total Subscribers", ...) that only fit their card by breaking inside a
 * word: the page lets long words wrap anywhere, so a card too narrow for "Subscribers" shows
 * "Subscriber / s" rather than overflowing. Measured with that wrapping turned off for a moment.
 */
function statLabelsCutInsideAWord(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('h2')]
      .filter((h) => h.textContent!.endsWith(' Subscribers'))
      .filter((h) => {
        h.style.overflowWrap = 'normal';
        const cut = h.scrollWidth > h.clientWidth;
        h.style.overflowWrap = '';
        return cut;
      })
      .map((h) => `${h.textContent} at ${window.innerWidth} px`),
  );
}

describe('subscriber administration', () => {
  it('asks a signed-out visitor to sign in, then shows the header, buttons and statistics', async () => {
    const { context, page } = await newPage(admin.browser);
    await page.goto('/admin/subscribers');
    await page.getByRole('button', { name: 'Login' }).waitFor();
    await signInThroughCard(page, '/admin/subscribers');
    await page.getByRole('heading', { name: 'Newsletter Subscribers' }).waitFor();
    expect(await page.getByText('Manage your newsletter subscription list').isVisible()).toBe(true);
    for (const name of ['Send Newsletter', 'Change Password', 'Download CSV', 'Sign Out']) {
      expect(await page.getByRole('button', { name }).isVisible()).toBe(true);
    }
    // SPEC.md's row in its order, then ours (Import CSV) after it (DECISIONS.md: new controls follow SPEC's).
    const row = await page
      .getByRole('button', { name: 'Sign Out' })
      .locator('xpath=..')
      .getByRole('button')
      .allTextContents();
    expect(row.map((text) => text.trim())).toEqual(['Send Newsletter', 'Change Password', 'Download CSV', 'Sign Out', 'Import CSV']);
    const list = await api<Subscriber[]>(context, 'GET', '/api/admin/subscribers');
    const since = Date.now() - 30 * 86_400_000;
    const stat = async (id: string) => Number((await page.getByTestId(id).textContent())!.replaceAll(',', ''));
    expect(await stat('stat-total-subscribers')).toBe(list.length);
    expect(await stat('stat-active-subscribers')).toBe(list.filter((s) => s.active === 'true').length);
    expect(await stat('stat-recent-subscribers')).toBe(list.filter((s) => new Date(s.subscriptionDate).getTime() >= since).length);
    await context.close();
  });

  it('lists subscribers with a dash for a missing name and Active or Inactive', async () => {
    const named = uniqueEmail('named');
    const anonymous = uniqueEmail('anon');
    await subscribe(admin.context, named, 'Pat Lindqvist');
    await subscribe(admin.context, anonymous);
    const confirmed = await confirmedSubscriber(admin.context, 'Active Reader');
    const { page } = admin;
    await page.goto('/admin/subscribers');
    for (const email of [named, anonymous, confirmed.email]) {
      await searchFor(page, email);
      await row(page, email).waitFor();
    }
    await searchFor(page, named);
    // allTextContents does not wait: the filtered row first (it failed once on a loaded run).
    await row(page, named).waitFor();
    let cells = await row(page, named).locator('td').allTextContents();
    expect(cells[1]).toBe('Pat Lindqvist');
    expect(cells[3]).toMatch(/^Inactive/); // not confirmed yet (double opt-in)
    await searchFor(page, anonymous);
    await row(page, anonymous).waitFor();
    cells = await row(page, anonymous).locator('td').allTextContents();
    expect(cells[1]).toBe('-');
    await searchFor(page, confirmed.email);
    await row(page, confirmed.email).waitFor();
    cells = await row(page, confirmed.email).locator('td').allTextContents();
    expect(cells[3]).toBe('Active');
  });

  it('downloads every subscriber as CSV, quoted and safe against formula injection', async () => {
    const formula = uniqueEmail('formula');
    const comma = uniqueEmail('comma');
    await subscribe(admin.context, formula, '=HYPERLINK("http://evil.example","click")');
    await subscribe(admin.context, comma, 'Smith, "Jr."');
    const { page } = admin;
    await page.goto('/admin/subscribers');
    await page.getByRole('heading', { name: 'Newsletter Subscribers' }).waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^subscribers-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = (await downloadedFile(download)).toString('utf8');
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe('"Email","Name","Subscription Date","Status"');
    const list = await api<Subscriber[]>(admin.context, 'GET', '/api/admin/subscribers');
    expect(lines.filter(Boolean)).toHaveLength(list.length + 1);
    expect(lines.find((l) => l.startsWith(`"${formula}"`))).toMatch(
      new RegExp(`^"${formula}","'=HYPERLINK\\(""http://evil.example"",""click""\\)","\\d{4}-\\d{2}-\\d{2}","Inactive"$`),
    );
    expect(lines.find((l) => l.startsWith(`"${comma}"`))).toMatch(new RegExp(`^"${comma}","Smith, ""Jr.""","\\d{4}-\\d{2}-\\d{2}","Inactive"$`));
  });

  it('validates the Send Newsletter dialog, loads the template and sends to a confirmed subscriber', async () => {
    const reader = await confirmedSubscriber(admin.context, 'Newsletter Reader');
    const { page } = admin;
    await page.goto('/admin/subscribers');
    await page.getByRole('button', { name: 'Send Newsletter' }).click();
    const dialog = page.getByRole('dialog', { name: 'Send Newsletter' });
    const list = await api<Subscriber[]>(admin.context, 'GET', '/api/admin/subscribers');
    const active = list.filter((s) => s.active === 'true').length;
    const sendButton = dialog.getByRole('button', { name: `Send to ${active} Subscribers` });
    await sendButton.click();
    await expectToastSaying(page, 'Error', 'Please fill in both subject and content');
    expect(await dialog.getByText('The template automatically adds social links, contact info and an unsubscribe link.').isVisible()).toBe(true);

    await dialog.getByRole('button', { name: 'Load Template' }).click();
    await waitUntil(async () => (await dialog.getByLabel('HTML Content').inputValue()).includes('/schedule'), 'the template with its /schedule link');
    const subject = `Winter tax checklist ${Date.now()}`;
    await dialog.getByLabel('Subject').fill(subject);
    await sendButton.click();
    await expectToastSaying(page, 'Success');
    await waitUntil(async () => (await dialog.count()) === 0, 'the dialog to close');

    // The history shows it, with its HTML in a sandboxed frame; the reader got it.
    const history = page.getByTestId('sent-newsletter').filter({ hasText: subject });
    await history.waitFor();
    const frame = history.locator('iframe');
    expect(await frame.getAttribute('sandbox')).toBe('');
    expect(await frame.getAttribute('srcdoc')).toContain('/schedule');
    // The frame really renders it (the call to action is there to see).
    await history.frameLocator('iframe').locator('a[href*="/schedule"]').first().waitFor();
    await waitUntil(
      async () => (await api<{ to: string; subject: string; kind: string }[]>(admin.context, 'GET', '/api/admin/emails')).some((e) => e.to === reader.email && e.subject === subject),
      'the newsletter e-mail to the confirmed reader',
      30_000,
    );
  });

  it('pages through the server’s search, 50 at a time, with the search and page in the address', async () => {
    const tag = `pg${Date.now().toString(36)}`;
    // 55 active readers (imported, consent given) and one pending sign-up, all carrying the tag.
    await imported(
      admin.context,
      Array.from({ length: 55 }, (_, i) => `${tag}-${String(i).padStart(2, '0')}@example.com`),
    );
    const pending = `${tag}-pending@example.com`;
    await subscribe(admin.context, pending);
    // Active readers would get every newsletter a later test sends: they go again at the end.
    const erase = async () => {
      const ours = (await api<Subscriber[]>(admin.context, 'GET', '/api/admin/subscribers')).filter((s) => s.email.startsWith(`${tag}-`));
      for (const s of ours) await api(admin.context, 'DELETE', `/api/admin/subscribers/${s.id}`);
    };
    const { page, errors } = await signedInTab(admin, '/admin/subscribers');
    const count = page.getByTestId('subscriber-search-count');
    const rows = page.getByTestId('subscriber-row');
    const pager = page.getByRole('navigation', { name: 'Subscriber pages' });

    await searchFor(page, tag.toUpperCase());
    await waitUntil(async () => (await count.textContent()) === '56 subscribers match', 'the search’s count');
    expect(await rows.count()).toBe(50);
    expect(await pager.getByText('Showing 1–50 of 56').isVisible()).toBe(true);
    expect(new URL(page.url()).searchParams.get('q')).toBe(tag.toUpperCase());
    expect(await pager.getByRole('button', { name: 'Previous' }).isDisabled()).toBe(true);

    await pager.getByRole('button', { name: 'Next' }).click();
    await pager.getByText('Showing 51–56 of 56').waitFor();
    await waitUntil(async () => (await rows.count()) === 6, 'the second page’s 6 rows');
    expect(new URL(page.url()).searchParams.get('page')).toBe('2');
    expect(await pager.getByRole('button', { name: 'Next' }).isDisabled()).toBe(true);

    // A reload opens the same page of the same search.
    await page.reload();
    await pager.getByText('Showing 51–56 of 56').waitFor();
    expect(await page.getByRole('searchbox', { name: 'Search subscribers' }).inputValue()).toBe(tag.toUpperCase());
    await waitUntil(async () => (await rows.count()) === 6, 'the second page after the reload');

    await pager.getByRole('button', { name: 'Previous' }).click();
    await pager.getByText('Showing 1–50 of 56').waitFor();
    expect(new URL(page.url()).searchParams.get('page')).toBeNull();

    // The status filter: the pending sign-up alone is Inactive; it goes back to page 1.
    await page.getByRole('combobox', { name: 'Status' }).selectOption('inactive');
    await waitUntil(async () => (await count.textContent()) === '1 subscriber matches', 'the one inactive match');
    expect(await rows.count()).toBe(1);
    expect(await row(page, pending).count()).toBe(1);
    expect(new URL(page.url()).searchParams.get('status')).toBe('inactive');
    await page.getByRole('combobox', { name: 'Status' }).selectOption('active');
    await waitUntil(async () => (await count.textContent()) === '55 subscribers match', 'the active matches');

    // The statistics count everyone, whatever the search.
    const list = await api<Subscriber[]>(admin.context, 'GET', '/api/admin/subscribers');
    expect(await page.getByTestId('stat-total-subscribers').textContent()).toBe(list.length.toLocaleString('en-US'));
    expect(errors).toEqual([]);
    await page.close();
    await erase();
  });

  it('falls back to the built-in template when the template cannot be loaded, and shows a send failure', async () => {
    const { page } = await signedInTab(admin, '/admin/subscribers');
    await page.route('**/api/admin/newsletter/template', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"down"}' }));
    await page.route('**/api/admin/send-newsletter', (route) =>
      route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify({ message: 'No active subscribers to send to' }) }),
    );
    await page.getByRole('button', { name: 'Send Newsletter' }).click();
    const dialog = page.getByRole('dialog', { name: 'Send Newsletter' });
    await dialog.getByRole('button', { name: 'Load Template' }).click();
    await waitUntil(async () => (await dialog.getByLabel('HTML Content').inputValue()).includes('href="/schedule"'), 'the fallback template');
    await dialog.getByLabel('Subject').fill('Fallback test');
    await dialog.getByRole('button', { name: /^Send to \d+ Subscribers$/ }).click();
    await expectToastSaying(page, 'Error', 'No active subscribers to send to');
    await page.close();
  });

  it('shows load failures as the spec says', async () => {
    const { page } = await signedInTab(admin, '/admin/subscribers');
    await page.route('**/api/admin/sent-newsletters', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"Internal server error"}' }));
    await page.reload();
    await expectToastSaying(page, 'Error', 'Failed to load sent newsletters history.');
    await page.unroute('**/api/admin/sent-newsletters');
    await page.route(isSearch, (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"Internal server error"}' }));
    await page.reload();
    await expectToastSaying(page, 'Error', 'Failed to load subscribers. Please try again.');
    // The export reads every subscriber when asked: its failure says the same.
    await page.unroute(isSearch);
    await page.reload();
    await page.getByTestId('subscriber-row').first().waitFor();
    await page.route('**/api/admin/subscribers', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"Internal server error"}' }));
    await page.getByRole('button', { name: 'Download CSV' }).click();
    await expectToastSaying(page, 'Error', 'Failed to load subscribers. Please try again.');
    await page.close();
  });

  it('signs out to /admin/login, and says so when signing out fails', async () => {
    const { context, page } = await newPage(admin.browser);
    await signInThroughCard(page, '/admin/subscribers');
    await page.route('**/api/admin/logout', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"boom"}' }), { times: 1 });
    await page.getByRole('button', { name: 'Sign Out' }).click();
    await expectToastSaying(page, 'Error', 'Failed to sign out. Please try again');
    await page.getByRole('button', { name: 'Sign Out' }).click();
    await expectToastSaying(page, 'Signed out successfully');
    await waitUntil(async () => new URL(page.url()).pathname === '/admin/login', '/admin/login');
    await page.getByRole('button', { name: 'Login' }).waitFor();
    expect((await api<{ authenticated: boolean }>(context, 'GET', '/api/admin/session')).authenticated).toBe(false);
    await context.close();
  });

  it('searches by e-mail or name, case-insensitively, with a count and an empty state', async () => {
    const tag = Date.now().toString(36);
    const byName = uniqueEmail('plain');
    const byEmail = uniqueEmail(`findme${tag}`);
    await subscribe(admin.context, byName, `Quincy Zebrafinch${tag}`);
    await subscribe(admin.context, byEmail);
    const { page } = admin;
    await page.goto('/admin/subscribers');
    const count = page.getByTestId('subscriber-search-count');
    const total = (await api<Subscriber[]>(admin.context, 'GET', '/api/admin/subscribers')).length;
    await waitUntil(async () => (await count.textContent()) === `${total.toLocaleString('en-US')} subscribers`, 'the unfiltered count');

    await searchFor(page, `ZEBRAFINCH${tag.toUpperCase()}`);
    await waitUntil(async () => (await count.textContent()) === '1 subscriber matches', 'one match by name');
    expect(await page.getByTestId('subscriber-row').count()).toBe(1);
    expect(await row(page, byName).count()).toBe(1);

    await searchFor(page, `FindMe${tag}`);
    await row(page, byEmail).waitFor();
    expect(await page.getByTestId('subscriber-row').count()).toBe(1);

    await searchFor(page, 'no-such-subscriber-anywhere');
    await page.getByRole('cell', { name: 'No subscribers match your search' }).waitFor();
    expect(await count.textContent()).toBe('0 subscribers match');
    expect(await page.getByTestId('subscriber-row').count()).toBe(0);
  });

  it('deletes a subscriber after a dialog that names the address, and erases them from the e-mail log', async () => {
    const email = uniqueEmail('erase');
    await subscribe(admin.context, email, 'Erin Erase');
    await waitUntil(
      async () => (await api<{ to: string }[]>(admin.context, 'GET', '/api/admin/emails')).some((e) => e.to === email),
      'the confirmation e-mail in the log',
    );
    const { page } = admin;
    await page.goto('/admin/subscribers');
    await searchFor(page, email);
    await row(page, email).getByRole('button', { name: `Delete ${email}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this subscriber?' });
    expect(await dialog.textContent()).toContain(email);
    // Keep leaves everything as it was.
    await dialog.getByRole('button', { name: 'Keep' }).click();
    await waitUntil(async () => (await dialog.count()) === 0, 'the dialog to close');
    expect(await row(page, email).count()).toBe(1);

    await row(page, email).getByRole('button', { name: `Delete ${email}` }).click();
    await dialog.getByRole('button', { name: 'Delete subscriber' }).click();
    await expectToastSaying(page, 'Subscriber deleted', email);
    await waitUntil(async () => (await row(page, email).count()) === 0, 'the row to go');
    await page.getByRole('cell', { name: 'No subscribers match your search' }).waitFor();
    const list = await api<Subscriber[]>(admin.context, 'GET', '/api/admin/subscribers');
    expect(list.some((s) => s.email === email)).toBe(false);
    const log = await api<{ to: string; textBody: string }[]>(admin.context, 'GET', '/api/admin/emails');
    expect(log.filter((e) => e.to === email || e.textBody.includes(email))).toEqual([]);
  });

  it('offers Resend only on pending rows, and says when the last confirmation was too recent', async () => {
    const pending = uniqueEmail('pending');
    await subscribe(admin.context, pending);
    const active = await confirmedSubscriber(admin.context, 'Already Active');
    const { page } = admin;
    await page.goto('/admin/subscribers');
    await searchFor(page, active.email);
    await row(page, active.email).waitFor();
    expect(await row(page, active.email).getByRole('button', { name: /^Resend/ }).count()).toBe(0);
    await searchFor(page, pending);
    // The sign-up mailed it a moment ago: the server's 10-minute rule answers, in its own words.
    await row(page, pending).getByRole('button', { name: `Resend confirmation to ${pending}` }).click();
    await expectToastSaying(page, 'Error', 'less than 10 minutes ago');
  });

  it('shows suppressed subscribers as Inactive with the reason and date beside it, and exports them as Inactive', async () => {
    const { page, errors } = await signedInTab(admin, '/admin/subscribers');
    await withSuppressed(page);
    await page.reload();
    await searchFor(page, '.reader@example.com');
    await row(page, 'spam.reader@example.com').waitFor();
    const bounced = await row(page, 'bounced.reader@example.com').locator('td').allTextContents();
    expect(bounced[3]).toBe('Inactivebounced: 550 5.1.1 mailbox does not exist · Nov 3, 2026');
    const complained = await row(page, 'spam.reader@example.com').locator('td').allTextContents();
    expect(complained[3]).toBe('Inactivemarked our mail as spam · Nov 4, 2026');
    // Five columns, no more: the reason is not a column of its own.
    expect(bounced).toHaveLength(5);
    // Nothing is sent to a suppressed address, so there is nothing to resend.
    expect(await row(page, 'bounced.reader@example.com').getByRole('button', { name: /^Resend/ }).count()).toBe(0);
    // The export: the same four columns, Status Active or Inactive, the reason nowhere.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    const csv = (await downloadedFile(download)).toString('utf8');
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe('"Email","Name","Subscription Date","Status"');
    expect(lines).toContain('"bounced.reader@example.com","Bo Unce","2026-10-02","Inactive"');
    expect(lines).toContain('"spam.reader@example.com","","2026-10-02","Inactive"');
    const rows = parseCsv(csv);
    expect(rows.filter((r) => r.length !== 4)).toEqual([]);
    expect(new Set(rows.slice(1).map((r) => r[3]))).toEqual(new Set(['Active', 'Inactive']));
    expect(csv).not.toContain('550 5.1.1');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('looks right on desktop and phone (screenshots when ADMIN_SCREENSHOTS is set)', async () => {
    for (const [label, viewport] of SCREEN_SIZES) {
      const { page, errors } = await signedInTab(admin, '/admin/subscribers', viewport);
      // Phones get the stacked list, wider screens the table.
      await page.getByTestId(label === '390' ? 'subscriber-item' : 'subscriber-row').first().waitFor();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      expect(await statLabelsCutInsideAWord(page)).toEqual([]);
      if (label === '390') {
        // The smallest width WCAG's reflow asks for: the cards stack there.
        await page.setViewportSize({ width: 320, height: 640 });
        expect(await statLabelsCutInsideAWord(page)).toEqual([]);
        await page.setViewportSize(viewport);
      }
      if (screenshotDir) {
        await saveScreens(page, `subscribers-${label}`);
        await withSuppressed(page);
        await page.reload();
        await searchFor(page, 'reader');
        await page.getByTestId(label === '390' ? 'subscriber-item' : 'subscriber-row').filter({ hasText: 'bounced.reader@example.com' }).waitFor();
        // The cookie notice would cover the rows in the picture (accepted once, it stays away).
        const accept = page.getByRole('button', { name: 'Accept', exact: true });
        if (await accept.isVisible()) await accept.click();
        await saveScreens(page, `subscribers-search-${label}`);
        await withoutSuppressed(page);
        await page.getByRole('button', { name: 'Send Newsletter' }).click();
        await page.getByRole('dialog').getByRole('button', { name: 'Load Template' }).click();
        await page.waitForTimeout(300);
        await page.screenshot({ path: `${screenshotDir}/subscribers-dialog-${label}.png` });
      }
      expect(errors.filter((e) => !e.includes('401'))).toEqual([]);
      await page.close();
    }
  });

  // Last: it ends every other session of this administrator (and restores the password after).
  it('changes the password with validation, then signs in with the new one', async () => {
    const original = inject('admin');
    const next = `${original.password}-new`;
    const { context, page } = await newPage(admin.browser);
    await signInThroughCard(page, '/admin/subscribers');
    let changed = false;
    try {
      await page.getByRole('button', { name: 'Change Password' }).click();
      const dialog = page.getByRole('dialog', { name: 'Change Admin Password' });
      const submit = dialog.getByRole('button', { name: 'Change Password' });
      await submit.click();
      await expectToastSaying(page, 'Error', 'Please fill in both password fields');
      await dialog.getByLabel('Current Password').fill(original.password);
      await dialog.getByLabel('New Password').fill('short');
      await submit.click();
      await expectToastSaying(page, 'Error', 'Password must be at least 12 characters');
      await dialog.getByLabel('Current Password').fill('not-the-password');
      await dialog.getByLabel('New Password').fill(next);
      await submit.click();
      await expectToastSaying(page, 'Error', 'Current password is incorrect');
      await dialog.getByLabel('Current Password').fill(original.password);
      await submit.click();
      await expectToastSaying(page, 'Success', 'Password changed successfully');
      changed = true;
      await waitUntil(async () => (await dialog.count()) === 0, 'the dialog to close');

      await page.getByRole('button', { name: 'Sign Out' }).click();
      await waitUntil(async () => new URL(page.url()).pathname === '/admin/login', '/admin/login');
      await page.getByLabel('Username').fill(original.username);
      await page.getByLabel('Password').fill(original.password);
      await page.getByRole('button', { name: 'Login' }).click();
      await expectToastSaying(page, 'Login failed', 'Invalid username or password');
      await page.getByLabel('Password').fill(next);
      await page.getByRole('button', { name: 'Login' }).click();
      await expectToastSaying(page, 'Login successful');
      await waitUntil(async () => new URL(page.url()).pathname === '/admin', '/admin');
    } finally {
      // Other test files sign in with the original password: put it back whatever happened.
      if (changed) {
        const login = await context.request.post('/api/admin/login', { data: { username: original.username, password: next }, headers: { origin: new URL(page.url()).origin } });
        if (login.ok()) {
          await api(context, 'POST', '/api/admin/change-password', { currentPassword: next, newPassword: original.password });
        }
      }
      await context.close();
    }
  });
});
