import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { totpCode } from '../../worker/services/admin-auth/totp';
import { api, signInThroughCard, uniqueEmail, waitUntil } from '../harness/e2e/admin-helpers';
import { confirmedSubscriber } from '../harness/e2e/admin-newsletter-helpers';
import { invited, ownerWithoutEmail, STAFF_PASSWORD } from '../harness/e2e/admin-users-helpers';
import { axeProblems, focusSweep, reflowProblems, requiredFieldProblems, sweepScreen, targetSizeProblems } from '../harness/e2e/a11y-sweep';
import { baseUrl, DESKTOP, launchBrowser, narrowTo, newPage, PHONE, settled } from '../harness/e2e/browser';

// docs/product.md "Accessibility": every admin screen, signed out and signed in with data on it
// (messages, appointments, subscribers, e-mails with an attached invite), and every dialog, meets
// the standard of tests/harness/e2e/a11y-sweep.ts at 1280 and 390 px (focus sweep, axe WCAG 2.2 A/AA and
// serious best practices, required fields, target size) and reflows at 320 px; a dialog also gives
// the focus back to its opener when it closes. The cookie banner stays up (never accepted). A new
// screen is covered by adding its address to ADMIN_ROUTES (with what to wait for in waitForData), a
// new dialog by adding it to DIALOGS. The draft previews (with their bar) are swept too. The
// invitation page, the forced two-factor set-up and the first sign-in's "Tell us who you are"
// (docs/product.md §6.8) have their own sweeps below.

const CONTENT_SECTIONS = ['firm', 'services', 'about', 'testimonials', 'faq', 'resources', 'privacy', 'booking', 'chat'].map((slug) => `/admin/content/${slug}`);
const ADMIN_ROUTES = [
  '/admin',
  // The inbox and the appointments searched (docs/product.md §6.2): results, and a search that finds nothing.
  '/admin?inbox-q=Axe%20Visitor&inbox-status=unread&appointments-q=axe&appointments-status=requested',
  '/admin?inbox-q=no-such-message-anywhere&appointments-q=no-such-booking-anywhere',
  '/admin/subscribers',
  '/admin/newsletters',
  '/admin/newsletters/edit',
  '/admin/availability',
  '/admin/chats',
  '/admin/content',
  '/admin/content/history',
  '/admin/users',
  '/admin/audit',
  '/admin/go-live',
  ...CONTENT_SECTIONS,
];
/** The login card: /admin signed out, and /admin/login. */
const SIGNED_OUT_ROUTES = ['/admin', '/admin/login'];

/**
 * Each dialog: where it opens, its opener, its title and the button that closes it without acting;
 * `ready`, what to wait for inside it before it is checked (its data, loaded).
 */
const DIALOGS: { route: string; opener: (page: Page) => Locator; title: string; dismiss: string; ready?: (dialog: Locator) => Promise<void> }[] = [
  { route: '/admin/subscribers', opener: (page) => page.getByRole('button', { name: 'Send Newsletter', exact: true }), title: 'Send Newsletter', dismiss: 'Cancel' },
  { route: '/admin/subscribers', opener: (page) => page.getByRole('button', { name: 'Change Password', exact: true }), title: 'Change Admin Password', dismiss: 'Cancel' },
  { route: '/admin/subscribers', opener: (page) => page.getByRole('button', { name: /^Delete / }).first(), title: 'Delete this subscriber?', dismiss: 'Keep' },
  { route: '/admin/subscribers', opener: (page) => page.getByRole('button', { name: 'Import CSV', exact: true }), title: 'Import Subscribers', dismiss: 'Cancel' },
  { route: '/admin/subscribers', opener: (page) => page.getByRole('button', { name: /^Report: / }).first(), title: 'Report: ', dismiss: 'Done' },
  { route: '/admin', opener: (page) => page.getByRole('button', { name: 'Send Newsletter', exact: true }), title: 'Send the newsletter now?', dismiss: 'Keep editing' },
  { route: '/admin', opener: (page) => page.getByRole('button', { name: 'Cancel', exact: true }).first(), title: 'Cancel this appointment?', dismiss: 'Keep it' },
  {
    route: '/admin',
    // The e-mail log's newest row (the table on wide screens, the card on phones), opened as sent.
    opener: (page) => page.getByRole('button', { name: /^View the e-mail to / }).filter({ visible: true }).first(),
    title: 'E-mail: ',
    dismiss: 'Done',
    ready: (dialog) => dialog.getByTestId('email-message').waitFor(),
  },
  { route: '/admin/content/history', opener: (page) => page.getByRole('button', { name: 'Restore version 1' }), title: 'Restore version 1?', dismiss: 'Cancel' },
  {
    route: '/admin/content',
    opener: (page) => page.getByRole('button', { name: 'Publish', exact: true }),
    title: 'Publish these changes?',
    dismiss: 'Cancel',
    ready: (dialog) => dialog.getByTestId('publish-flagged').waitFor(),
  },
];

let browser: Browser;
let seed: BrowserContext;
/** The signed-in page every screen is swept in (the seeding context's). */
let admin: Page;
let blocked: string | undefined;

/** A weekday booking far ahead at a random offset, retried when the slot is taken or closed. */
async function bookSomething(context: BrowserContext, email: string) {
  const slots = ['9:00 AM', '10:00 AM', '11:00 AM', '1:00 PM', '2:00 PM', '3:00 PM', '4:00 PM'];
  for (let attempt = 0; attempt < 30; attempt++) {
    const day = new Date(Date.now() + (60 + Math.floor(Math.random() * 300)) * 86_400_000);
    if (day.getUTCDay() === 0 || day.getUTCDay() === 6) continue;
    const res = await context.request.post('/api/appointments', {
      data: { name: 'Axe Booker', email, phone: '724-555-0100', serviceType: 'Payroll Services', date: day.toISOString().slice(0, 10), timeSlot: slots[attempt % slots.length], notes: 'Accessibility run' },
      headers: { origin: baseUrl() },
    });
    if (res.status() === 409) continue;
    if (!res.ok()) throw new Error(`booking failed: ${res.status()} ${await res.text()}`);
    return { id: ((await res.json()) as { id: number }).id, date: day.toISOString().slice(0, 10) };
  }
  throw new Error('no free slot found');
}

beforeAll(async () => {
  browser = await launchBrowser();
  const { context, page } = await newPage(browser);
  seed = context;
  admin = page;
  await signInThroughCard(page);
  await api(context, 'POST', '/api/contact', { name: 'Axe Visitor', email: uniqueEmail('axe-visitor'), phone: '412-555-0101', message: 'A message so the inbox has a card to check.' });
  // One long unbroken address (as real ones and other tests' are): a card must wrap it at 320 px.
  const requested = await bookSomething(context, uniqueEmail('axe-requested-with-a-long-unbroken-name'));
  const confirmed = await bookSomething(context, uniqueEmail('axe-confirmed'));
  await api(context, 'PATCH', `/api/admin/appointments/${confirmed.id}`, { status: 'confirmed' });
  const cancelled = await bookSomething(context, uniqueEmail('axe-cancelled'));
  await api(context, 'PATCH', `/api/admin/appointments/${cancelled.id}`, { status: 'cancelled' });
  // A closed day that still has a booking: the availability screen lists both.
  blocked = requested.date;
  await api(context, 'POST', '/api/admin/blocked-dates', { date: blocked, reason: 'Staff training' });
  await confirmedSubscriber(context, 'Axe Reader');
  await api(context, 'POST', '/api/newsletter/subscribe', { email: uniqueEmail('axe-pending'), name: 'Pending Reader' });
  // A scheduled newsletter and a plain draft: the drafts screen lists both kinds.
  const { draft } = await api<{ draft: { id: number } }>(context, 'POST', '/api/admin/newsletter/drafts', { subject: 'Axe scheduled issue', content: '<p>Checked for accessibility.</p>' });
  await api(context, 'POST', `/api/admin/newsletter/drafts/${draft.id}/schedule`, { date: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10), time: '09:00' });
  await api(context, 'POST', '/api/admin/newsletter/drafts', { subject: 'Axe draft', content: '' });
  // A sent issue with a link: its history card has a Report button (docs/product.md §5.10).
  const issue = `Axe issue ${Date.now()}`;
  await api(context, 'POST', '/api/admin/send-newsletter', { subject: issue, content: '<p>See <a href="https://www.irs.gov/">the IRS news</a>.</p>' });
  // It goes out through the cron. While it does, /admin and /admin/subscribers show its progress
  // block, which would go in the middle of a sweep and move what is below it (a footer link Tab
  // had scrolled into view was then found outside the viewport): every screen is swept once it is sent.
  const sent = async () => (await api<{ subject: string; status: string }[]>(context, 'GET', '/api/admin/sent-newsletters')).some((n) => n.subject === issue && n.status !== 'sending');
  await waitUntil(sent, 'the seeded issue sent', 150_000);
  // A chat conversation, so the transcripts screen has a row to check.
  await api(context, 'POST', '/api/chat', { message: 'What are your office hours?', sessionId: crypto.randomUUID() });
  // A published version with a change and a draft: the content history lists a diff and a version to restore.
  const content = await api<{ published: { version: number; content: { firm: { tagline: string; links: Record<string, string> } } }; draft: { updatedAt: string } | null }>(
    context,
    'GET',
    '/api/admin/content',
  );
  const edited = { ...content.published.content, firm: { ...content.published.content.firm, tagline: `${content.published.content.firm.tagline} (checked)` } };
  const saved = await api<{ revision: number }>(context, 'PUT', '/api/admin/content/draft', { basedOn: content.published.version, draftUpdatedAt: content.draft?.updatedAt ?? null, content: edited });
  await api(context, 'POST', '/api/admin/content/publish', { basedOn: content.published.version, revision: saved.revision });
  // The draft changes a link too: the Publish confirmation lists it among the flagged changes.
  const drafted = { ...edited, firm: { ...edited.firm, tagline: `${edited.firm.tagline} (draft)`, links: { ...edited.firm.links, clientPortal: 'https://portal.example.com/axe' } } };
  await api(context, 'PUT', '/api/admin/content/draft', { basedOn: content.published.version + 1, draftUpdatedAt: null, content: drafted });
}, 240_000);

afterAll(async () => {
  if (blocked) await api(seed, 'DELETE', `/api/admin/blocked-dates/${blocked}`);
  await seed?.close();
  await browser?.close();
});

/** What each screen must show before it is checked: its data, loaded. */
async function waitForData(page: Page, route: string) {
  await page.getByRole('heading', { level: 1 }).waitFor();
  if (route === '/admin') {
    // A message card, an appointment card, an e-mail with its attachment; past appointments open.
    await page.getByTestId('message-card').first().waitFor();
    await page.getByTestId('appointment-card').first().waitFor();
    await page.getByTestId('email-attachment').first().waitFor({ state: 'attached' });
    await page.getByRole('button', { name: /^Show past appointments/ }).click();
  } else if (route.startsWith('/admin?')) {
    await page.getByRole('search', { name: 'Search messages' }).waitFor();
    await page.getByRole('search', { name: 'Search appointments' }).waitFor();
    if (route.includes('no-such-message')) {
      await page.getByText(/^No messages match/).waitFor();
      await page.getByText(/^No upcoming appointments matching/).waitFor();
    } else {
      await page.getByTestId('message-card').first().waitFor();
      await page.getByTestId('appointment-card').first().waitFor();
    }
  } else if (route === '/admin/subscribers') {
    await waitUntil(async () => (await page.getByTestId('subscriber-row').count()) > 0, 'subscriber rows');
  } else if (route === '/admin/newsletters') {
    await page.getByTestId('newsletter-draft').first().waitFor();
  } else if (route === '/admin/newsletters/edit') {
    await page.getByRole('toolbar', { name: 'Formatting' }).waitFor();
  } else if (route === '/admin/content') {
    await page.getByTestId('content-draft-state').getByText(/saved by/).waitFor();
  } else if (route === '/admin/content/history') {
    await page.getByRole('button', { name: 'Restore version 1' }).waitFor();
  } else if (route.startsWith('/admin/content/')) {
    await page.getByRole('button', { name: 'Save draft' }).waitFor();
  } else if (route === '/admin/users') {
    // An account with its sessions open.
    const row = page.getByTestId('user-row').first();
    await row.waitFor();
    if ((await row.getByTestId('session-row').count()) === 0) await row.getByRole('button', { name: /^Sessions of / }).click();
    await row.getByTestId('session-row').first().waitFor();
  } else if (route === '/admin/audit') {
    // The sign-in of this run is an entry at least: the table on wide screens, the list on phones.
    await waitUntil(async () => (await page.locator('[data-testid="audit-row"]:visible, [data-testid="audit-item"]:visible').count()) > 0, 'audit entries');
  } else if (route === '/admin/go-live') {
    await page.getByRole('list', { name: 'Go-live requirements' }).waitFor();
  } else if (route === '/admin/chats') {
    // The table on wide screens, the list on phones: whichever is shown has a row.
    await waitUntil(async () => (await page.locator('[data-testid="chat-session-row"]:visible, [data-testid="chat-session-item"]:visible').count()) > 0, 'chat rows');
  } else {
    await page.getByTestId('weekday-grid').waitFor();
    await page.locator(`[data-testid="blocked-date"][data-date="${blocked}"]`).waitFor();
  }
}

/** Opens a signed-in screen at this size, with its data loaded. */
async function openScreen(page: Page, route: string, viewport: { width: number; height: number }) {
  await page.setViewportSize(viewport);
  await page.goto(route);
  await waitForData(page, route);
  await settle(page);
}

/**
 * Not 'networkidle': /admin/subscribers keeps polling while an earlier test's newsletter is still
 * going out to its 10,000 subscribers, so the network never goes quiet. The screen's data is on
 * screen (waitForData); let pending renders settle, and wait until the page has stopped growing, so
 * axe and the sweep see the whole screen. A poll may still grow a panel during the sweep: it looks
 * again at any stop it found outside the viewport (recheckOutside in tests/harness/e2e/a11y-sweep.ts).
 */
async function settle(page: Page) {
  await page.waitForTimeout(300);
  await settled(page);
}

/** Marks the opener, so where the focus lands after closing can be compared with it. */
async function markOpener(opener: Locator) {
  await opener.evaluate((el) => el.setAttribute('data-opener-under-test', ''));
}
/**
 * Whether the focus comes back to the opener. Radix restores it in an effect after the dialog's
 * node is gone, so this waits on that state (up to 10 s) instead of reading it once.
 */
const focusIsOnOpener = async (page: Page) => {
  try {
    await page.waitForFunction(() => document.activeElement?.hasAttribute('data-opener-under-test') ?? false, undefined, { timeout: 10_000 });
    return true;
  } catch {
    return false;
  }
};

describe('admin accessibility', () => {
  it.each(SIGNED_OUT_ROUTES)('%s signed out (the login card) meets the standard at 1280, 390 and 320 px', async (route) => {
    const { context, page } = await newPage(browser);
    try {
      const problems: string[] = [];
      for (const [viewport, backwards] of [[DESKTOP, true], [PHONE, false]] as const) {
        await page.setViewportSize(viewport);
        await page.goto(route);
        await page.getByRole('button', { name: 'Login' }).waitFor();
        problems.push(...(await sweepScreen(page, `${route} signed out at ${viewport.width}px`, { backwards })));
      }
      problems.push(...(await reflowProblems(page)));
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);

  it.each(ADMIN_ROUTES)('%s signed in with data meets the standard at 1280, 390 and 320 px', async (route) => {
    await openScreen(admin, route, DESKTOP);
    const problems = await sweepScreen(admin, `${route} at 1280px`, { backwards: true });
    await narrowTo(admin, PHONE);
    problems.push(...(await sweepScreen(admin, `${route} at 390px`, { backwards: false })));
    problems.push(...(await reflowProblems(admin)));
    expect(problems).toEqual([]);
  }, 180_000);

  it('the invitation page and the forced two-factor set-up meet the standard at 1280, 390 and 320 px', async () => {
    const email = uniqueEmail('axe-invitee');
    const path = await invited(seed, email);
    let ownerRecoveryCode: string | undefined;
    const { context, page } = await newPage(browser);
    const problems: string[] = [];
    try {
      for (const [viewport, backwards] of [[DESKTOP, true], [PHONE, false]] as const) {
        await page.setViewportSize(viewport);
        await page.goto(path);
        await page.getByRole('button', { name: 'Create account' }).waitFor();
        problems.push(...(await sweepScreen(page, `invitation at ${viewport.width}px`, { backwards })));
      }
      problems.push(...(await reflowProblems(page)));

      // Accepted, then signed in while the owner requires two-factor: the set-up is all there is.
      const username = `axe-${Date.now().toString(36)}`;
      await page.getByLabel('Username').fill(username);
      await page.getByLabel('Password').fill(STAFF_PASSWORD);
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.getByRole('button', { name: 'Login' }).waitFor();
      // The owner turns its own second factor on first (the policy would hold the owner too), and
      // off again at the end with a recovery code: the other files on this stack sign in without one.
      const { secret } = await api<{ secret: string }>(seed, 'POST', '/api/admin/two-factor/setup', { password: inject('admin').password });
      const enabled = await api<{ recoveryCodes: string[] }>(seed, 'POST', '/api/admin/two-factor/enable', { password: inject('admin').password, code: await totpCode(secret, Date.now()) });
      ownerRecoveryCode = enabled.recoveryCodes[0];
      await api(seed, 'PUT', '/api/admin/security-settings', { requireTwoFactor: true });
      await signInThroughCard(page, '/admin', { username, password: STAFF_PASSWORD });
      for (const [viewport, backwards] of [[DESKTOP, true], [PHONE, false]] as const) {
        await page.setViewportSize(viewport);
        await page.goto('/admin');
        await page.getByRole('heading', { name: 'Set up two-factor sign-in', level: 1 }).waitFor();
        problems.push(...(await sweepScreen(page, `two-factor set-up at ${viewport.width}px`, { backwards })));
      }
      problems.push(...(await reflowProblems(page)));
    } finally {
      await api(seed, 'PUT', '/api/admin/security-settings', { requireTwoFactor: false });
      if (ownerRecoveryCode) await api(seed, 'POST', '/api/admin/two-factor/disable', { password: inject('admin').password, code: ownerRecoveryCode });
      await context.close();
    }
    expect(problems).toEqual([]);
  }, 180_000);

  // A content preview (the public page with the draft the seed saved) and its "Draft preview: not
  // live" bar (worker/services/content/preview-bar.ts): the page's own standard with the bar on it.
  it.each(['/', '/faq'])('the draft preview of %s, with its bar, meets the standard at 1280, 390 and 320 px', async (path) => {
    await admin.setViewportSize(DESKTOP);
    await admin.goto(`/api/admin/content/preview?path=${encodeURIComponent(path)}`);
    await admin.getByRole('region', { name: 'Draft preview' }).waitFor();
    await admin.waitForLoadState('networkidle', { timeout: 30_000 });
    await settle(admin);
    const problems = await sweepScreen(admin, `preview of ${path} at 1280px`, { backwards: true });
    await narrowTo(admin, PHONE);
    problems.push(...(await sweepScreen(admin, `preview of ${path} at 390px`, { backwards: false })));
    problems.push(...(await reflowProblems(admin)));
    expect(problems).toEqual([]);
  }, 180_000);

  it('the first sign-in\'s "Tell us who you are" meets the standard at 1280, 390 and 320 px, its messages shown too', async () => {
    const owner = await ownerWithoutEmail('axe-first-owner');
    const { context, page } = await newPage(browser);
    const problems: string[] = [];
    try {
      await signInThroughCard(page, '/admin', owner);
      for (const [viewport, backwards] of [[DESKTOP, true], [PHONE, false]] as const) {
        await page.setViewportSize(viewport);
        await page.goto('/admin');
        await page.getByRole('heading', { name: 'Tell us who you are', level: 1 }).waitFor();
        problems.push(...(await sweepScreen(page, `"Tell us who you are" at ${viewport.width}px`, { backwards })));
        // With its field messages on screen as well.
        await page.getByRole('button', { name: 'Save and continue' }).click();
        await page.getByText('Name is required').waitFor();
        problems.push(...(await axeProblems(page)).map((p) => `"Tell us who you are" with messages at ${viewport.width}px: ${p}`));
      }
      problems.push(...(await reflowProblems(page)));
    } finally {
      await context.close();
    }
    expect(problems).toEqual([]);
  }, 180_000);

  it.each(DIALOGS.map((d) => [d.title, d] as const))('the "%s" dialog meets the standard and gives the focus back to its opener on Escape and on its dismiss button', async (_title, dialog) => {
    const problems: string[] = [];
    await openScreen(admin, dialog.route, DESKTOP);
    for (const viewport of [DESKTOP, PHONE]) {
      if (viewport === PHONE) await narrowTo(admin, PHONE);
      const opener = dialog.opener(admin);
      await markOpener(opener);
      const shown = admin.getByRole('dialog', { name: dialog.title });
      const label = `"${dialog.title}" at ${viewport.width}px`;

      // Opened from the keyboard; checked while open; closed with Escape.
      await opener.focus();
      await admin.keyboard.press('Enter');
      await shown.waitFor();
      await dialog.ready?.(shown);
      problems.push(...(await axeProblems(admin, { include: '[role="dialog"]' })).map((p) => `${label}: ${p}`));
      problems.push(...(await requiredFieldProblems(admin)).map((p) => `${label}: ${p}`));
      problems.push(...(await targetSizeProblems(admin)).map((p) => `${label}: ${p}`));
      const sweep = await focusSweep(admin, { fromStart: false, backwards: viewport === DESKTOP });
      problems.push(...sweep.problems.map((p) => `${label}: ${p}`));
      await admin.keyboard.press('Escape');
      await shown.waitFor({ state: 'detached' });
      if (!(await focusIsOnOpener(admin))) problems.push(`${label}: Escape left the focus on ${await admin.evaluate(() => document.activeElement?.outerHTML.slice(0, 80))}, not the opener`);

      // Opened again; closed with its dismiss button, pressed from the keyboard.
      await opener.focus();
      await admin.keyboard.press('Enter');
      await shown.waitFor();
      await shown.getByRole('button', { name: dialog.dismiss, exact: true }).focus();
      await admin.keyboard.press('Enter');
      await shown.waitFor({ state: 'detached' });
      if (!(await focusIsOnOpener(admin))) problems.push(`${label}: ${dialog.dismiss} left the focus on ${await admin.evaluate(() => document.activeElement?.outerHTML.slice(0, 80))}, not the opener`);
    }
    expect(problems).toEqual([]);
  }, 120_000);
});
