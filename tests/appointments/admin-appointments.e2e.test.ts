import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, firmDay, isWeekday } from '../harness/calendar-days';
import { parseCsv } from '../harness/web/csv-reader';
import { adminSessionPerFile, api, saveScreens, signedInTab, uniqueEmail, waitUntil } from '../harness/e2e/admin-helpers';
import { baseUrl, downloadedFile, PHONE } from '../harness/e2e/browser';

// The admin's appointments view (grouped by day, status filter, past on request, CSV exports) and
// the e-mail log's attachments, against the real local stack.

type Appointment = { id: number; name: string; email: string; date: string; timeSlot: string; status: 'requested' | 'confirmed' | 'cancelled'; createdAt: string };

const admin = adminSessionPerFile();

const SLOTS = ['9:00 AM', '10:00 AM', '11:00 AM', '1:00 PM', '2:00 PM', '3:00 PM', '4:00 PM'];

const today = firmDay(0);
const marker = Math.random().toString(36).slice(2, 8);

/**
 * Books two slots on one weekday and one on a later weekday, far enough ahead (and at a random
 * offset) that other test files never take them; retries another day when a slot is taken or closed.
 */
async function bookScene(context: BrowserContext) {
  for (let attempt = 0; attempt < 30; attempt++) {
    // Within the booking horizon (BOOKING_HORIZON_DAYS, 365): later days are refused.
    const first = addDays(today, 120 + Math.floor(Math.random() * 200));
    if (!isWeekday(first)) continue;
    let second = addDays(first, 1);
    while (!isWeekday(second)) second = addDays(second, 1);
    const wanted = [
      { key: 'early', date: first, timeSlot: '9:00 AM', name: `Early ${marker}` },
      { key: 'late', date: first, timeSlot: '2:00 PM', name: `Late, "Pat" ${marker}` },
      { key: 'next', date: second, timeSlot: SLOTS[Math.floor(Math.random() * SLOTS.length)], name: `Next ${marker}` },
    ];
    const booked: Record<string, Appointment> = {};
    let ok = true;
    for (const w of wanted) {
      const email = uniqueEmail(w.key);
      const res = await context.request.post('/api/appointments', {
        data: { name: w.name, email, serviceType: 'Tax Planning Consultation', date: w.date, timeSlot: w.timeSlot, notes: `=HYPERLINK("http://evil.example"), ${w.key}\nsecond line` },
        headers: { origin: baseUrl() },
      });
      if (res.status() === 409) {
        ok = false;
        break;
      }
      if (!res.ok()) throw new Error(`booking failed: ${res.status()} ${await res.text()}`);
      const { id } = (await res.json()) as { id: number };
      booked[w.key] = { id, name: w.name, email, date: w.date, timeSlot: w.timeSlot, status: 'requested', createdAt: '' };
    }
    if (!ok) {
      // Free what this attempt took so the next one starts clean.
      for (const b of Object.values(booked)) await api(context, 'PATCH', `/api/admin/appointments/${b.id}`, { status: 'cancelled' });
      continue;
    }
    await api(context, 'PATCH', `/api/admin/appointments/${booked.late.id}`, { status: 'confirmed' });
    await api(context, 'PATCH', `/api/admin/appointments/${booked.next.id}`, { status: 'cancelled' });
    return { early: booked.early, late: { ...booked.late, status: 'confirmed' as const }, next: { ...booked.next, status: 'cancelled' as const } };
  }
  throw new Error('no free slots found');
}

let scene: Awaited<ReturnType<typeof bookScene>>;
// Appointments the API cannot create (today's, whose slot may have passed, and past ones) are added
// to the real list in the browser: the view's grouping and "past on request" are what is tested.
const todays: Appointment = { id: 990_001, name: `Today ${marker}`, email: `today-${marker}@example.com`, date: today, timeSlot: '4:00 PM', status: 'requested', createdAt: new Date().toISOString() };
const pasts: Appointment = { id: 990_002, name: `Past ${marker}`, email: `past-${marker}@example.com`, date: addDays(today, -9), timeSlot: '10:00 AM', status: 'confirmed', createdAt: new Date().toISOString() };

type SearchPage = { items: Appointment[]; total: number; upcoming: number; past: number };

async function withTodayAndPast(page: Page) {
  // The whole list (GET /api/admin/appointments), which the CSV export reads.
  await page.route('**/api/admin/appointments', async (route) => {
    const res = await route.fetch();
    const real = (await res.json()) as Appointment[];
    const extra = [todays, pasts].map((a) => ({ ...a, phone: null, serviceType: 'Tax Planning Consultation', notes: null }));
    // The API's order: upcoming soonest first, then past latest first.
    const upcoming = real.filter((a) => a.date >= today);
    const past = real.filter((a) => a.date < today);
    await route.fulfill({ response: res, json: [extra[0], ...upcoming, ...past, extra[1]] });
  });
  // The panel's pages (GET /api/admin/appointments/search).
  await page.route('**/api/admin/appointments/search*', async (route) => {
    const url = new URL(route.request().url());
    const res = await route.fetch();
    const real = (await res.json()) as SearchPage;
    // Added where the server would put them: today's first among the upcoming, the past one last,
    // each only when it matches the search asked for (status, and the marker every name here holds).
    const status = url.searchParams.get('status');
    const q = (url.searchParams.get('q') ?? '').toLowerCase();
    const fits = (a: Appointment) => (!status || a.status === status) && (!q || `${a.name} ${a.email}`.toLowerCase().includes(q));
    const extra = (a: Appointment) => (fits(a) ? [{ ...a, phone: null, serviceType: 'Tax Planning Consultation', notes: null }] : []);
    const when = url.searchParams.get('when');
    const firstPage = !url.searchParams.has('page');
    const upcoming = extra(todays);
    const past = extra(pasts);
    const items = when === 'past' ? [...real.items, ...(firstPage ? past : [])] : [...(firstPage ? upcoming : []), ...real.items];
    const added = when === 'past' ? past.length : upcoming.length;
    await route.fulfill({ response: res, json: { ...real, items, total: real.total + added, upcoming: real.upcoming + upcoming.length, past: real.past + past.length } });
  });
}

/** /admin with the appointments searched for this file's own (every name holds the marker): other files' bookings stay out. */
const ownSearch = `/admin?appointments-q=${marker}`;
const statusFilter = (page: Page) => page.getByRole('search', { name: 'Search appointments' }).getByLabel('Status');

beforeAll(async () => {
  scene = await bookScene(admin.context);
  await withTodayAndPast(admin.page);
});
// A read still in flight when the page closes must not outlive it (an unhandled rejection otherwise).
afterAll(async () => {
  await admin.page.unrouteAll({ behavior: 'ignoreErrors' });
});

const upcomingList = (page: Page) => page.getByRole('list', { name: 'Upcoming appointments' });
const pastList = (page: Page) => page.getByRole('list', { name: 'Past appointments' });
const cardOf = (scope: Locator, a: Appointment) => scope.getByTestId('appointment-card').filter({ hasText: a.email });

async function visibleEmails(list: Locator) {
  const all = [todays, pasts, scene.early, scene.late, scene.next];
  const shown: string[] = [];
  for (const a of all) if ((await cardOf(list, a).count()) > 0 && (await cardOf(list, a).isVisible())) shown.push(a.email);
  return shown;
}

async function download(page: Page, button: string) {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: button }).click()]);
  return { name: file.suggestedFilename(), rows: parseCsv((await downloadedFile(file)).toString('utf8')) };
}

describe("the admin's appointments view", () => {
  it('groups upcoming appointments by day, today first, slots in order within a day', async () => {
    const { page } = admin;
    await page.goto(ownSearch);
    const upcoming = upcomingList(page);
    await cardOf(upcoming, scene.early).waitFor();
    const days = await upcoming.getByTestId('appointment-day').evaluateAll((els) => els.map((el) => el.getAttribute('data-date')!));
    expect(days[0]).toBe(today);
    expect([...days].sort()).toEqual(days);
    expect(new Set(days).size).toBe(days.length);
    const todayGroup = upcoming.getByTestId('appointment-day').first();
    expect(await todayGroup.getByRole('heading', { level: 3 }).textContent()).toMatch(/^Today · /);
    expect(await cardOf(todayGroup, todays).count()).toBe(1);

    const day = upcoming.locator(`[data-testid="appointment-day"][data-date="${scene.early.date}"]`);
    const cards = await day.getByTestId('appointment-card').allTextContents();
    const mine = cards.filter((t) => t.includes(marker));
    expect(mine).toHaveLength(2);
    expect(mine[0]).toContain(scene.early.email);
    expect(mine[1]).toContain(scene.late.email);
    expect(mine[0]).toContain('9:00 AM');
    // The next day's cancelled booking is in its own, later group.
    expect(days.indexOf(scene.next.date)).toBeGreaterThan(days.indexOf(scene.early.date));
  });

  it('shows past appointments only on request', async () => {
    const { page } = admin;
    await page.goto(ownSearch);
    await cardOf(upcomingList(page), scene.early).waitFor();
    expect(await page.getByText(pasts.email).count()).toBe(0);
    const show = page.getByRole('button', { name: /^Show past appointments \(\d+\)$/ });
    expect(await show.getAttribute('aria-expanded')).toBe('false');
    await show.click();
    await cardOf(pastList(page), pasts).waitFor();
    expect(await page.getByRole('button', { name: 'Hide past appointments' }).getAttribute('aria-expanded')).toBe('true');
    // Past ones cannot be confirmed or cancelled any more.
    expect(await cardOf(pastList(page), pasts).getByRole('button').count()).toBe(0);
    await page.getByRole('button', { name: 'Hide past appointments' }).click();
    await waitUntil(async () => (await page.getByText(pasts.email).count()) === 0, 'past appointments hidden');
  });

  it('filters by status, upcoming and past alike', async () => {
    const { page } = admin;
    await page.goto(ownSearch);
    await cardOf(upcomingList(page), scene.early).waitFor();
    await page.getByRole('button', { name: /^Show past appointments/ }).click();
    const filter = statusFilter(page);
    const expectations: [string, Appointment[]][] = [
      ['requested', [todays, scene.early]],
      ['confirmed', [pasts, scene.late]],
      ['cancelled', [scene.next]],
      ['', [todays, pasts, scene.early, scene.late, scene.next]],
    ];
    for (const [status, expected] of expectations) {
      await filter.selectOption(status);
      const want = expected.map((a) => a.email).sort();
      await waitUntil(
        async () => JSON.stringify([...(await visibleEmails(upcomingList(page))), ...(await visibleEmails(pastList(page)))].sort()) === JSON.stringify(want),
        `only ${status} appointments`,
      );
      if (status !== '') {
        const badges = await page.getByTestId('appointment-card').allTextContents();
        const label = status[0].toUpperCase() + status.slice(1);
        for (const text of badges) expect(text).toContain(label);
      }
    }
    await filter.selectOption('cancelled');
    // An empty past list says so rather than showing nothing.
    await page.getByText(`No past cancelled appointments matching “${marker}”.`).waitFor();
  });

  it('exports every appointment as CSV, quoted and formula-safe', async () => {
    const { page } = admin;
    await page.goto(ownSearch);
    await cardOf(upcomingList(page), scene.early).waitFor();
    await statusFilter(page).selectOption('cancelled');
    const { name, rows } = await download(page, 'Export appointments CSV');
    expect(name).toMatch(/^appointments-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(rows[0]).toEqual(['ID', 'Date', 'Time', 'Service', 'Name', 'Email', 'Phone', 'Status', 'Notes', 'Requested At']);
    const byEmail = new Map(rows.slice(1).map((r) => [r[5], r]));
    // Whatever the filter shows, the export holds every appointment, in calendar order.
    for (const a of [todays, pasts, scene.early, scene.late, scene.next]) {
      expect(byEmail.get(a.email)?.slice(0, 8)).toEqual([String(a.id), a.date, a.timeSlot, 'Tax Planning Consultation', a.name, a.email, '', a.status]);
    }
    expect(byEmail.get(scene.late.email)![4]).toBe(`Late, "Pat" ${marker}`);
    expect(byEmail.get(scene.early.email)![8]).toBe(`'=HYPERLINK("http://evil.example"), early\nsecond line`);
    expect(byEmail.get(scene.early.email)![9]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    const dates = rows.slice(1).map((r) => r[1]);
    expect([...dates].sort()).toEqual(dates);
  });

  it('exports the contact messages as CSV, quoted and formula-safe', async () => {
    const email = uniqueEmail('csv-visitor');
    const text = '+1 555 0100, call me.\nAsk for "Robin", please.';
    await api(admin.context, 'POST', '/api/contact', { name: '@Robin Vale', email, message: text });
    const { page } = admin;
    await page.goto('/admin');
    await page.getByTestId('message-card').filter({ hasText: email }).waitFor();
    const { name, rows } = await download(page, 'Export messages CSV');
    expect(name).toMatch(/^contact-messages-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(rows[0]).toEqual(['ID', 'Received', 'Name', 'Email', 'Phone', 'Message', 'Read']);
    const row = rows.find((r) => r[3] === email)!;
    expect(row.slice(2)).toEqual(["'@Robin Vale", email, '', `'${text}`, 'No']);
    expect(row[1].slice(0, 10)).toBe(firmDay(0));
    const listed = await api<unknown[]>(admin.context, 'GET', '/api/admin/contact-messages');
    expect(rows).toHaveLength(listed.length + 1);
  });

  it('lists the invite attached to a confirmation in the e-mail log, and downloads it', async () => {
    const { page } = admin;
    await page.goto('/admin');
    type Logged = { to: string; kind: string; attachments: { filename: string; content: string }[] };
    const logged = (await api<Logged[]>(admin.context, 'GET', '/api/admin/emails')).find((e) => e.to === scene.early.email && e.attachments.length > 0);
    expect(logged?.kind).toBe('appointment-confirmation');
    const row = page.getByTestId('email-log-row').filter({ hasText: scene.early.email }).filter({ has: page.getByTestId('email-attachment') }).first();
    await page.getByRole('heading', { name: 'Email Log' }).waitFor();
    // The log shows 20 lines at a time; the booking may be further down.
    for (let i = 0; i < 10 && !(await row.isVisible()); i++) {
      const more = page.getByRole('button', { name: /^Show more/ });
      if (await more.isVisible()) await more.click();
      else await page.waitForTimeout(200);
    }
    await row.waitFor();
    const link = row.getByTestId('email-attachment').first();
    expect(await link.textContent()).toContain(logged!.attachments[0].filename);
    const [file] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(file.suggestedFilename()).toBe(logged!.attachments[0].filename);
    // The file is exactly what went out.
    const bytes = await downloadedFile(file);
    expect(bytes.equals(Buffer.from(logged!.attachments[0].content, 'base64'))).toBe(true);
    expect(bytes.toString('utf8')).toMatch(/^BEGIN:VCALENDAR\r\n[\s\S]*BEGIN:VEVENT/);
  });

  it('stays usable at 390 px: filter, past toggle and exports on screen, nothing wider than the phone', async () => {
    const { page } = await signedInTab(admin, '/admin', PHONE);
    await withTodayAndPast(page);
    await page.goto(ownSearch);
    await cardOf(upcomingList(page), scene.early).waitFor();
    await page.getByRole('button', { name: /^Show past appointments/ }).click();
    await cardOf(pastList(page), pasts).waitFor();
    for (const control of [statusFilter(page), page.getByRole('button', { name: 'Export appointments CSV' }), page.getByRole('button', { name: 'Export messages CSV' })]) {
      const box = (await control.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await page.getByRole('heading', { name: 'Appointments' }).scrollIntoViewIfNeeded();
    await saveScreens(page, 'admin-appointments-390');
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    await page.close();
    await admin.page.goto(ownSearch);
    await cardOf(upcomingList(admin.page), scene.early).waitFor();
    await admin.page.getByRole('button', { name: /^Show past appointments/ }).click();
    await saveScreens(admin.page, 'admin-appointments-1280');
    // Two loads of the whole panel (a phone tab, then the desktop one): room for a loaded machine.
  }, 120_000);
});
