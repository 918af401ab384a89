import type { BrowserContext, Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, SCREEN_SIZES } from '../harness/e2e/browser';
import { adminSessionPerFile, api, expectToastSaying, saveScreens, signedInContext, signedInTab, uniqueEmail, waitUntil } from '../harness/e2e/admin-helpers';
import { confirmedSubscriber } from '../harness/e2e/admin-newsletter-helpers';

// The back office at /admin, driven as the administrator drives it. The server is the real local
// stack; where a test needs a slow or failing answer it holds that one request in the browser.

const admin = adminSessionPerFile();

beforeAll(async () => {
  // Someone to send newsletters to: a reader who confirmed through the e-mailed link.
  await confirmedSubscriber(admin.context, 'Panel Reader');
});

type ContactMessage = { id: number; name: string; email: string; readAt: string | null };

async function postContact(context: BrowserContext, fields: { name: string; email: string; phone?: string; message: string }) {
  await api(context, 'POST', '/api/contact', fields);
  const list = await api<ContactMessage[]>(admin.context, 'GET', '/api/admin/contact-messages');
  const stored = list.find((m) => m.email === fields.email);
  if (!stored) throw new Error('contact message not stored');
  return stored;
}

const card = (page: Page, email: string) => page.getByTestId('message-card').filter({ hasText: email });

/** A new signed-in tab at /admin on which this API path fails with this status and message. */
async function adminPageWhereFails(path: string, status: number, message: string) {
  const { page } = await signedInTab(admin);
  await page.route(`**${path}`, (route) => route.fulfill({ status, contentType: 'application/json', body: JSON.stringify({ message }) }));
  return page;
}

describe('the admin panel', () => {
  it('lays the blocks out in the documented order, the added blocks after them', async () => {
    const email = uniqueEmail('order');
    await postContact(admin.context, { name: 'Order Check', email, message: 'Where does my message show?' });
    const { page } = admin;
    await page.goto('/admin');
    await card(page, email).waitFor();
    await page.getByRole('button', { name: 'Quick Preview' }).click();
    await page.getByRole('heading', { name: 'Newsletter Preview' }).waitFor();
    const heading = (name: string) => page.getByRole('heading', { name, exact: true });
    // docs/product.md §6.2: the original panel's blocks in their order...
    const blocks: Array<[string, Locator]> = [
      ['submission badges', page.getByRole('list', { name: 'Submission statistics' })],
      ['newsletter badges', page.getByRole('list', { name: 'Newsletter statistics' })],
      ['scheduler', heading('Automated Newsletter Scheduler')],
      ['Quick Preview', page.getByRole('button', { name: 'Quick Preview', exact: true })],
      ['AI Preview', page.getByRole('button', { name: 'AI Preview', exact: true })],
      ['Send Newsletter', page.getByRole('button', { name: 'Send Newsletter', exact: true })],
      ['Newsletter Preview', heading('Newsletter Preview')],
      ['Email Authentication Setup', heading('Email Authentication Setup')],
      ['contact messages', heading('Contact Messages')],
      ['a message card', card(page, email)],
      // ...then the blocks added since, whichever order they take among themselves.
    ];
    const added: Array<[string, Locator]> = [
      ['appointments', heading('Appointments')],
      ['delivery events', heading('Delivery events')],
      ['two-factor', heading('Two-factor sign-in')],
      ['e-mail log', heading('Email Log')],
    ];
    const follows = async (first: Locator, second: Locator) => {
      const [a, b] = await Promise.all([first.elementHandle(), second.elementHandle()]);
      return page.evaluate(([x, y]) => Boolean(x!.compareDocumentPosition(y!) & Node.DOCUMENT_POSITION_FOLLOWING), [a, b] as const);
    };
    for (let i = 1; i < blocks.length; i++) {
      expect(await follows(blocks[i - 1][1], blocks[i][1]), `${blocks[i][0]} comes after ${blocks[i - 1][0]}`).toBe(true);
    }
    const lastOriginal = blocks.at(-1)![1];
    for (const [name, block] of added) expect(await follows(lastOriginal, block), `${name} comes after the contact messages`).toBe(true);
  });

  it('shows three skeleton cards while the inbox loads, then the empty state', async () => {
    const { page } = await signedInTab(admin);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/admin/contact-messages/search*', async (route) => {
      await held;
      await route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ items: [], total: 0, page: 1, pageSize: 50, unread: 0, all: 0 }) });
    });
    await page.goto('/admin');
    await waitUntil(async () => (await page.getByTestId('message-skeleton').count()) === 3, 'three skeleton cards');
    release();
    await page.getByText('No messages yet').waitFor();
    expect(await page.getByText('Contact messages will appear here when customers submit the form.').isVisible()).toBe(true);
    // The empty state sits in the middle of its card: as much room above as below.
    const padding = await page.getByText('No messages yet').evaluate((text) => {
      const { paddingTop, paddingBottom } = getComputedStyle(text.parentElement!);
      return { paddingTop, paddingBottom };
    });
    expect(padding).toEqual({ paddingTop: '48px', paddingBottom: '48px' });
    await page.close();
  });

  it("shows a visitor's message with its details, Reply via Email and Call, and the badges count it", async () => {
    const email = uniqueEmail('visitor');
    const stored = await postContact(admin.context, {
      name: 'Dana Whitfield',
      email,
      phone: '(724) 555-0142',
      message: 'Could you help with my 2025 return?\nI moved to Pennsylvania mid-year.',
    });
    const { page } = admin;
    await page.goto('/admin');
    const c = card(page, email);
    await c.waitFor();
    const text = await c.textContent();
    expect(text).toContain('Dana Whitfield');
    expect(text).toContain('(724) 555-0142');
    expect(text).toContain(`ID: ${stored.id}`);
    expect(await c.getByTestId('message-text').textContent()).toBe('Could you help with my 2025 return?\nI moved to Pennsylvania mid-year.');
    expect(await c.getByRole('link', { name: 'Reply via Email' }).getAttribute('href')).toMatch(new RegExp(`^mailto:${email}\\?subject=`));
    expect(await c.getByRole('link', { name: 'Call' }).getAttribute('href')).toBe('tel:7245550142');

    // The badges agree with the server's own numbers.
    const messages = await api<ContactMessage[]>(admin.context, 'GET', '/api/admin/contact-messages');
    type FormCount = { count: number; cap: number };
    const stats = await api<{ ipCount: number; contact: FormCount; booking: FormCount }>(admin.context, 'GET', '/api/admin/rate-limit-stats');
    const badges = page.getByRole('list', { name: 'Submission statistics' });
    await waitUntil(async () => (await badges.textContent())!.includes(`Total Messages: ${messages.length}`), 'total messages badge');
    const badgeText = await badges.textContent();
    expect(badgeText).toContain(`Today's Submissions: ${stats.contact.count}/${stats.contact.cap} messages, ${stats.booking.count}/${stats.booking.cap} bookings`);
    expect(badgeText).toContain(`Active IPs: ${stats.ipCount}`);
    const protection = badges.getByText('MailChannels Protection: Active');
    const busy = [stats.contact, stats.booking].some((form) => form.count > form.cap * 0.75);
    expect(await protection.getAttribute('data-badge-variant')).toBe(busy ? 'destructive' : 'success');
    const newsletterBadges = await page.getByRole('list', { name: 'Newsletter statistics' }).textContent();
    expect(newsletterBadges).toMatch(/Active Subscribers: \d+/);
    expect(newsletterBadges).toMatch(/Newsletters Sent: \d+/);
    expect(newsletterBadges).toMatch(/Last Sent: /);
  });

  it('marks a message read and unread, and the unread count follows', async () => {
    const email = uniqueEmail('unread');
    await postContact(admin.context, { name: 'Read Tester', email, message: 'Please mark me as read, thank you.' });
    const { page } = admin;
    await page.goto('/admin');
    const c = card(page, email);
    await c.waitFor();
    const unreadCount = async () => Number(/(\d+) unread/.exec((await page.getByTestId('unread-count').textContent()) ?? '')?.[1]);
    // The inbox's unread figure is the whole inbox's, and other files add messages at the same time:
    // this message's own state comes from a search, and the badge is held to the server's figure.
    const stillUnread = async () => (await api<{ total: number }>(admin.context, 'GET', `/api/admin/contact-messages/search?status=unread&q=${encodeURIComponent(email)}`)).total;
    const serverUnread = async () => (await api<{ unread: number }>(admin.context, 'GET', '/api/admin/contact-messages/search')).unread;
    expect(await stillUnread()).toBe(1);
    expect(await c.getAttribute('data-unread')).toBe('true');
    await c.getByRole('button', { name: 'Mark as read' }).click();
    await waitUntil(async () => (await c.getAttribute('data-unread')) === 'false', 'card marked read');
    expect(await stillUnread()).toBe(0);
    // It stays read after a reload: the server stored it, and the badge shows the inbox's figure.
    await page.reload();
    await waitUntil(async () => {
      if ((await unreadCount()) === (await serverUnread())) return true;
      await page.reload(); // another file's message arrived between the page's read and ours
      return false;
    }, 'the badge to show the inbox\'s unread figure');
    await card(page, email).getByRole('button', { name: 'Mark as unread' }).click();
    await waitUntil(async () => (await card(page, email).getAttribute('data-unread')) === 'true', 'card marked unread');
  });

  it('shows a message holding HTML and script as plain text and runs none of it', async () => {
    const email = uniqueEmail('xss');
    const payload = `<img src=x onerror="window.__xss='img';alert('img')"><script>window.__xss='script';alert('script')</script><b>bold?</b> javascript:alert(1)`;
    await postContact(admin.context, { name: '<i>Mallory</i>', email, message: payload });
    const { page, errors } = await signedInTab(admin);
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.goto('/admin');
    const c = card(page, email);
    await c.waitFor();
    expect(await c.getByTestId('message-text').textContent()).toBe(payload);
    expect(await c.getByRole('heading', { level: 3 }).textContent()).toContain('<i>Mallory</i>');
    expect(await c.locator('img, script, b, i').count()).toBe(0);
    await page.waitForTimeout(500);
    expect(await page.evaluate(() => (window as unknown as { __xss?: string }).__xss)).toBeUndefined();
    expect(dialogs).toEqual([]);
    expect(errors.filter((e) => !e.includes('401'))).toEqual([]);
    await page.close();
  });

  it('sends the generated newsletter from the panel after asking, and refreshes the statistics', async () => {
    const { page } = admin;
    await page.goto('/admin');
    const before = await api<{ totalSent: number }>(admin.context, 'GET', '/api/admin/newsletter/stats');
    await page.getByRole('button', { name: 'Send Newsletter' }).click();
    const [answer] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/admin/newsletter/send')),
      page.getByRole('dialog', { name: 'Send the newsletter now?' }).getByRole('button', { name: 'Send now' }).click(),
    ]);
    const body = (await answer.json()) as { sentCount?: number; message: string };
    const badges = page.getByRole('list', { name: 'Newsletter statistics' });
    if (answer.status() === 409) {
      // Another test file already sent this period's newsletter on the shared server.
      await expectToastSaying(page, 'Failed to send newsletter', body.message);
      return;
    }
    expect(answer.status()).toBe(200);
    expect(body.sentCount).toBeGreaterThanOrEqual(1);
    await expectToastSaying(page, 'Newsletter sent successfully!', `Delivered to ${body.sentCount} subscribers`);
    await waitUntil(async () => (await badges.textContent())!.includes(`Newsletters Sent: ${before.totalSent + 1}`), 'the sent count to refresh');
  });

  it('shows a newsletter still going out with its progress until it settles', async () => {
    const { page } = await signedInTab(admin);
    // Sending resumes on cron ticks, so a large list is "sending" for a while. Hold the server's
    // history answer in that state: first still going out, then settled.
    let settled = false;
    const newsletter = { id: 9001, subject: 'March tax deadlines', content: '<p>Hi</p>', sentAt: new Date().toISOString(), totalRecipients: 300 };
    await page.route('**/api/admin/sent-newsletters', (route) =>
      route.fulfill({
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify([
          settled
            ? { ...newsletter, recipientCount: 297, failedCount: 3, status: 'sent' }
            : { ...newsletter, recipientCount: 120, failedCount: 3, status: 'sending' },
        ]),
      }),
    );
    await page.goto('/admin');
    const progress = page.getByTestId('sending-progress');
    await progress.waitFor();
    expect(await progress.textContent()).toContain('120 of 300 delivered, 3 failed');
    expect(await progress.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('41');
    settled = true;
    // Re-read every 10 s while one is sending; the bar goes away once it has settled.
    await waitUntil(async () => (await progress.count()) === 0, 'the progress to disappear', 15_000);
    await page.close();
  });

  it('starts and stops the scheduler, re-reading its status, and Send Now triggers it', async () => {
    const { page } = admin;
    await page.goto('/admin');
    const status = page.getByTestId('scheduler-status');
    await status.waitFor();
    if ((await status.textContent()) === 'Running') {
      await page.getByRole('button', { name: 'Stop Scheduler' }).click();
      await waitUntil(async () => (await status.textContent()) === 'Stopped', 'scheduler stopped');
    }
    expect(await page.getByText(/Schedule: .+/).isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Start Scheduler' }).click();
    await expectToastSaying(page, 'Scheduler started successfully');
    await waitUntil(async () => (await status.textContent()) === 'Running', 'scheduler running');
    expect((await api<{ running: boolean }>(admin.context, 'GET', '/api/admin/scheduler/status')).running).toBe(true);

    await page.getByRole('button', { name: 'Stop Scheduler' }).click();
    await expectToastSaying(page, 'Scheduler stopped successfully');
    await waitUntil(async () => (await status.textContent()) === 'Stopped', 'scheduler stopped');
    expect((await api<{ running: boolean }>(admin.context, 'GET', '/api/admin/scheduler/status')).running).toBe(false);

    // One newsletter per period: Send Now succeeds unless this month's went out already (the
    // panel send earlier in this file, or another test file). Either way the screen tells the truth.
    const [answer] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/admin/scheduler/trigger')),
      page.getByRole('button', { name: 'Send Now' }).click(),
    ]);
    const body = (await answer.json()) as { message: string };
    if (answer.ok()) await expectToastSaying(page, 'Scheduler triggered', body.message);
    else {
      expect(answer.status()).toBe(409);
      await expectToastSaying(page, 'Failed to trigger scheduler', body.message);
    }
    expect(await status.textContent()).toBe('Stopped');
  });

  it('says which scheduler action failed', async () => {
    const page = await adminPageWhereFails('/api/admin/scheduler/start', 500, 'Scheduler store unavailable');
    await page.getByTestId('scheduler-status').waitFor();
    if ((await page.getByTestId('scheduler-status').textContent()) === 'Running') {
      await page.getByRole('button', { name: 'Stop Scheduler' }).click();
      await page.getByRole('button', { name: 'Start Scheduler' }).waitFor();
    }
    await page.getByRole('button', { name: 'Start Scheduler' }).click();
    await expectToastSaying(page, 'Failed to start scheduler', 'Scheduler store unavailable');
    await page.close();
  });

  it('polls the scheduler status every 10 seconds while signed in and the tab is visible', async () => {
    // A context of its own: the fake clock below is the context's, and would stay in every later tab.
    const { context, page } = await signedInContext(admin);
    let reads = 0;
    page.on('request', (r) => {
      if (r.url().endsWith('/api/admin/scheduler/status')) reads++;
    });
    // The page's timers run on a fake clock, moved on by hand: no real 10-second waits.
    await page.clock.install();
    await page.goto('/admin');
    await page.getByTestId('scheduler-status').waitFor();
    const first = reads;
    await page.clock.runFor(10_800);
    await expect.poll(() => reads).toBeGreaterThan(first);

    // The tab goes to the background: polling pauses (refetchIntervalInBackground is false).
    await page.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    const hiddenFrom = reads;
    await page.clock.runFor(11_000);
    // A request the page makes now is reported after any it made while the clock ran.
    await page.evaluate(() => fetch('/api/health').then((res) => res.status));
    expect(reads).toBe(hiddenFrom);
    await context.close();
  });

  it('shows the quick preview and the AI preview in a sandboxed frame', async () => {
    const { page } = admin;
    await page.goto('/admin');
    const expected = await api<{ subject: string; htmlContent: string }>(admin.context, 'GET', '/api/admin/newsletter/preview-static');
    await page.getByRole('button', { name: 'Quick Preview' }).click();
    await page.getByRole('heading', { name: 'Newsletter Preview' }).waitFor();
    expect(await page.getByTestId('preview-subject').textContent()).toBe(expected.subject);
    const frame = page.locator('iframe[title="Newsletter preview"]');
    expect(await frame.getAttribute('sandbox')).toBe('');
    expect(await frame.getAttribute('srcdoc')).toBe(expected.htmlContent);

    // The AI preview takes 15-20 s in production; hold the answer to see the waiting label.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/admin/newsletter/preview', async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole('button', { name: 'AI Preview' }).click();
    await page.getByRole('button', { name: 'Generating (15-20s)...' }).waitFor();
    release();
    await page.getByRole('button', { name: 'AI Preview' }).waitFor();
    expect((await page.getByTestId('preview-subject').textContent())?.length).toBeGreaterThan(0);
    expect(await frame.getAttribute('sandbox')).toBe('');
    await page.unroute('**/api/admin/newsletter/preview');
  });

  it('tests e-mail authentication and sends a test e-mail that the log then shows', async () => {
    const { page } = admin;
    await page.goto('/admin');
    await page.getByRole('button', { name: 'Test Email Auth' }).click();
    const results = page.getByRole('list', { name: 'Email authentication results' });
    await results.waitFor();
    const ready = (await results.textContent())!.includes(': Ready');
    if (ready) await expectToastSaying(page, 'Email authentication successful', 'MailChannels');
    else await expectToastSaying(page, 'Email authentication failed', 'Check configuration and try again');
    for (const step of ['MAILCHANNELS_API_KEY', 'include:relay.mailchannels.net', 'mailchannels._domainkey', '_mailchannels']) {
      expect(await page.getByText(step, { exact: false }).first().isVisible()).toBe(true);
    }

    const sendTest = page.getByRole('button', { name: 'Send Test' });
    expect(await sendTest.isDisabled()).toBe(true);
    const to = uniqueEmail('test-recipient');
    await page.getByLabel('Test recipient').fill(to);
    expect(await sendTest.isDisabled()).toBe(false);
    await sendTest.click();
    await expectToastSaying(page, 'Test email sent!');
    const log = page.getByRole('table', { name: 'Email log' });
    await waitUntil(async () => (await log.textContent())!.includes(to), 'the test e-mail in the log');
  });

  it('reports an authentication test that cannot run', async () => {
    const page = await adminPageWhereFails('/api/admin/email/test-auth', 500, 'Internal server error');
    await page.getByRole('button', { name: 'Test Email Auth' }).click();
    await expectToastSaying(page, 'Authentication test failed');
    await page.close();
  });

  it('confirms and cancels an appointment, e-mailing the client each time', async () => {
    const email = uniqueEmail('booker');
    const appointment = await bookSomeSlot(admin.context, email);
    const { page } = admin;
    // Searched for (the list holds 50 upcoming a page, and other files book too).
    await page.goto(`/admin?appointments-q=${encodeURIComponent(email)}`);
    const c = page.getByTestId('appointment-card').filter({ hasText: email });
    await c.waitFor();
    expect(await c.textContent()).toContain('Tax Planning Consultation');
    expect(await c.textContent()).toContain(appointment.timeSlot);
    expect(await c.textContent()).toContain('Please bring last year');
    expect(await c.textContent()).toContain('Requested');

    await c.getByRole('button', { name: 'Confirm' }).click();
    await expectToastSaying(page, 'Appointment confirmed');
    await waitUntil(async () => (await c.textContent())!.includes('Confirmed'), 'status Confirmed');

    await c.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('dialog', { name: 'Cancel this appointment?' }).getByRole('button', { name: 'Cancel appointment' }).click();
    await expectToastSaying(page, 'Appointment cancelled');
    await waitUntil(async () => (await c.textContent())!.includes('Cancelled'), 'status Cancelled');

    const stored = (await api<{ id: number; status: string }[]>(admin.context, 'GET', '/api/admin/appointments')).find((a) => a.id === appointment.id);
    expect(stored?.status).toBe('cancelled');
    const emails = await api<{ to: string; kind: string }[]>(admin.context, 'GET', '/api/admin/emails');
    expect(emails.filter((e) => e.to === email && e.kind === 'appointment-status').length).toBe(2);
  });

  it('says why a panel send failed', async () => {
    const page = await adminPageWhereFails('/api/admin/newsletter/send', 502, 'Mail relay unavailable');
    await page.getByRole('button', { name: 'Send Newsletter' }).click();
    await page.getByRole('button', { name: 'Send now' }).click();
    await expectToastSaying(page, 'Failed to send newsletter', 'Mail relay unavailable');
    await page.close();
  });

  it('looks right on desktop and phone (screenshots when ADMIN_SCREENSHOTS is set)', async () => {
    for (const [label, viewport] of SCREEN_SIZES) {
      const { page, errors } = await signedInTab(admin, '/admin', viewport);
      await page.getByRole('button', { name: 'Quick Preview' }).click();
      await page.getByRole('heading', { name: 'Newsletter Preview' }).waitFor();
      await page.getByTestId('message-card').first().waitFor();
      // Nothing wider than the screen.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await saveScreens(page, `admin-${label}`);
      expect(errors.filter((e) => !e.includes('401'))).toEqual([]);
      await page.close();
    }
  });
});

/** Books a free weekday slot a few weeks ahead (other test files book too, so retry on 409). */
async function bookSomeSlot(context: BrowserContext, email: string): Promise<{ id: number; date: string; timeSlot: string }> {
  const slots = ['9:00 AM', '10:00 AM', '11:00 AM', '1:00 PM', '2:00 PM', '3:00 PM', '4:00 PM'];
  for (let attempt = 0; attempt < 20; attempt++) {
    const day = new Date(Date.now() + (20 + Math.floor(Math.random() * 60)) * 86_400_000);
    if (day.getUTCDay() === 0 || day.getUTCDay() === 6) continue;
    const date = day.toISOString().slice(0, 10);
    const timeSlot = slots[Math.floor(Math.random() * slots.length)];
    const res = await context.request.post('/api/appointments', {
      data: { name: 'Ellis Booker', email, phone: '724-555-0199', serviceType: 'Tax Planning Consultation', date, timeSlot, notes: "Please bring last year's return." },
      headers: { origin: baseUrl() },
    });
    if (res.status() === 409) continue;
    if (!res.ok()) throw new Error(`booking failed: ${res.status()} ${await res.text()}`);
    const body = (await res.json()) as { id: number };
    return { id: body.id, date, timeSlot };
  }
  throw new Error('no free slot found');
}
