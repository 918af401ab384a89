import { afterAll, describe, expect, it } from 'vitest';
import { BOOKING_RULE_DEFAULTS } from '#core/content/booking';
import { axeProblems, reflowProblems } from '../harness/e2e/a11y-sweep';
import { adminSessionPerFile, api, expectToastSaying, saveScreens } from '../harness/e2e/admin-helpers';
import { bookableDay, firmDay, open, pickDay, showMonthOf } from '../harness/e2e/booking-helpers';
import { baseUrl, DESKTOP, newPage, SCREEN_SIZES } from '../harness/e2e/browser';

// docs/product.md §6.4 and §3: the admin sets a 48-hour minimum notice on /admin/availability and
// the visitor's calendar greys the days inside it; a visitor in Los Angeles sees the slots named
// in the firm's zone (ET) and the chosen one in their own time. The rules are put back to the
// defaults afterwards: the other browser test files book on the same server (one after another).

const admin = adminSessionPerFile('/admin');

afterAll(async () => {
  if (admin) await api(admin.context, 'PUT', '/api/admin/booking-rules', BOOKING_RULE_DEFAULTS);
});

describe('booking rules and the firm’s zone', () => {
  it('the admin sets a 48-hour notice: the visitor’s calendar greys tomorrow and still offers a later day', async () => {
    const { page } = admin;
    await page.goto('/admin/availability');
    const notice = page.getByLabel('Minimum notice (hours)');
    await expect.poll(() => notice.inputValue(), { timeout: 15_000 }).toBe('0');
    expect(await page.getByLabel('Booking horizon (days)').inputValue()).toBe('365');

    // The holiday switch shows the upcoming holidays, each reopenable; the screen passes axe and reflows.
    await page.getByRole('checkbox', { name: /Close every US federal holiday/ }).check();
    await page.getByRole('checkbox', { name: /^Open on / }).first().waitFor();
    for (const [label, size] of SCREEN_SIZES) {
      await page.setViewportSize(size);
      expect(await axeProblems(page)).toEqual([]);
      await saveScreens(page, `booking-rules-admin-${label}`);
    }
    await page.setViewportSize({ width: 320, height: 800 });
    expect(await reflowProblems(page)).toEqual([]);
    await page.setViewportSize(DESKTOP);
    await page.getByRole('checkbox', { name: /Close every US federal holiday/ }).uncheck();

    await notice.fill('48');
    await page.getByRole('button', { name: 'Update booking rules' }).click();
    await expectToastSaying(page, 'Booking rules saved');
    expect(await api<{ rules: unknown }>(admin.context, 'GET', '/api/admin/availability')).toMatchObject({
      rules: { minimumNoticeHours: 48, horizonDays: 365, closeFederalHolidays: false },
    });

    const visitor = await newPage(admin.browser, DESKTOP);
    await open(visitor.page, '/schedule');
    // Tomorrow is inside 48 hours whatever its weekday; four days out is not (a day the server
    // offers, asked after the rule was saved, so a weekend or closed day is never taken for "later").
    const laterDay = await bookableDay(4);
    const tomorrow = await showMonthOf(visitor.page, firmDay(1));
    await expect.poll(() => tomorrow.getAttribute('data-disabled'), { timeout: 15_000 }).toBe('true');
    const later = await showMonthOf(visitor.page, laterDay);
    expect(await later.getAttribute('data-disabled')).toBeNull();
    await visitor.context.close();
  });

  it('a visitor in Los Angeles sees the slots in ET and the chosen one in their own time; the value sent is unchanged', async () => {
    for (const [label, viewport] of SCREEN_SIZES) {
      const context = await admin.browser.newContext({ baseURL: baseUrl(), viewport, timezoneId: 'America/Los_Angeles' });
      const page = await context.newPage();
      await open(page, '/schedule');
      // The other browser files on this stack book days that far ahead too: a day whose 10:00 AM is free.
      const day = await bookableDay(10, { slots: ['10:00 AM'] });
      await pickDay(page, day);
      const time = page.getByLabel('Preferred Time');
      await expect.poll(() => time.locator('option[value="10:00 AM"]').count(), { timeout: 15_000 }).toBe(1);
      const note = page.getByTestId('slot-zone-note');
      expect(await note.textContent()).toBe('All times are Eastern Time (ET).');
      await time.selectOption('10:00 AM');
      await expect.poll(() => note.textContent()).toBe('All times are Eastern Time (ET). 10:00 AM ET (7:00 AM your time)');
      expect(await time.inputValue()).toBe('10:00 AM');
      expect(await time.getAttribute('aria-describedby')).toContain('booking-time-zone');
      await note.scrollIntoViewIfNeeded();
      await saveScreens(page, `booking-form-los-angeles-${label}`);
      await context.close();
    }
  });
});
