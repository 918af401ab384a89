import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { firm } from '#core/content/firm';
import { browserPerFile, waitUntil } from '../harness/e2e/admin-helpers';
import { runAxe } from '../harness/e2e/a11y-sweep';
import { islandReady, newPage, SCREEN_SIZES } from '../harness/e2e/browser';

// docs/product.md §2 and §4 (issue 52 item 4): a visitor who types what looks like a Social Security
// or account number into the contact form or the chat is told, under the field and before sending,
// to use the client portal; the notice goes when the number does, and a phone number never shows it.
// Screenshots of the notice go to SSN_SCREENSHOTS when set (ssn-<where>-<width>.png).

const shared = browserPerFile();
const shots = process.env.SSN_SCREENSHOTS;

const NOTICE = "This looks like a Social Security or account number. Please don't send it here: upload it through our secure client portal (opens in a new tab).";

async function visitor(viewport: { width: number; height: number }) {
  const opened = await newPage(shared.browser, viewport);
  // Only the page itself: /contact's map is a frame whose storage is closed to scripts.
  await opened.context.addInitScript(() => {
    if (window === window.top) window.localStorage.setItem('cookieConsent', 'true');
  });
  return opened;
}

/** The field's notice, found through the field's own aria-describedby (so the tie itself is checked). */
async function noticeOf(field: Locator): Promise<string> {
  return field.evaluate((element) => {
    const ids = element.getAttribute('aria-describedby')?.split(' ') ?? [];
    const notice = ids.map((id) => document.getElementById(id)).find((node) => node?.getAttribute('aria-live') === 'polite');
    return notice?.textContent ?? '';
  });
}

/** Types `text` into the field and checks whether the notice shows, with the portal's link in a new tab. */
async function expectNotice(page: Page, field: Locator, text: string, shown: boolean) {
  await field.fill(text);
  await waitUntil(async () => (await noticeOf(field)) === (shown ? NOTICE : ''), `the notice ${shown ? 'shown' : 'hidden'} for "${text}"`);
  const link = page.getByRole('link', { name: 'secure client portal (opens in a new tab)' });
  expect(await link.count()).toBe(shown ? 1 : 0);
  if (shown) {
    expect(await link.getAttribute('href')).toBe(firm.links.clientPortal);
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(await link.isVisible()).toBe(true);
  }
}

describe('the portal notice for an SSN or account number', () => {
  for (const [width, viewport] of SCREEN_SIZES) {
    it(`shows under the contact form's message while it holds an SSN, and sending stays possible (${width})`, async () => {
      const { page, context, errors } = await visitor(viewport);
      await page.goto('/contact');
      await islandReady(page, 'contact-form');
      const message = page.getByRole('textbox', { name: 'Message', exact: true });
      await expectNotice(page, message, `Please call me at ${firm.contact.phone} or +1 (412) 555-0123 about my 2025 return, ZIP 15086-1234.`, false);
      await expectNotice(page, message, 'My SSN is 123-45-6789, can you file my return?', true);
      expect(await page.getByRole('button', { name: 'Send Message' }).isEnabled()).toBe(true);
      expect((await runAxe(page, { include: ['[data-island="contact-form"]'] })).map((v) => `${v.id}: ${v.help}`)).toEqual([]);
      if (shots) await page.locator('[data-island="contact-form"] form').screenshot({ path: `${shots}/ssn-contact-${width}.png` });
      await expectNotice(page, message, 'My SSN is on its way through the portal.', false);
      await expectNotice(page, message, 'My account number is 0012345678901', true);
      expect(errors).toEqual([]);
      await context.close();
    });

    it(`shows under the chat's message box while it holds a card number (${width})`, async () => {
      const { page, context, errors } = await visitor(viewport);
      await page.goto('/');
      await page.getByRole('button', { name: 'Chat with us' }).click();
      const panel = page.getByRole('dialog', { name: 'Chat with us' });
      await panel.waitFor();
      const input = panel.getByRole('textbox', { name: 'Type your message' });
      await expectNotice(page, input, 'Call me on 724-555-0142 please', false);
      await expectNotice(page, input, 'my card is 4111 1111 1111 1111', true);
      expect(await panel.getByRole('button', { name: 'Send message' }).isEnabled()).toBe(true);
      expect((await runAxe(page, { include: ['#chat-panel'] })).map((v) => `${v.id}: ${v.help}`)).toEqual([]);
      const box = await panel.boundingBox();
      expect(box!.x + box!.width).toBeLessThanOrEqual(viewport.width);
      if (shots) await panel.screenshot({ path: `${shots}/ssn-chat-${width}.png` });
      await expectNotice(page, input, '', false);
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  it("shows under the hand-off form's note while it holds an SSN", async () => {
    const [, viewport] = SCREEN_SIZES[1];
    const { page, context, errors } = await visitor(viewport);
    await page.goto('/');
    await page.getByRole('button', { name: 'Chat with us' }).click();
    const panel = page.getByRole('dialog', { name: 'Chat with us' });
    const input = panel.getByRole('textbox', { name: 'Type your message' });
    await input.fill('Do you offer payroll services?');
    await input.press('Enter');
    // Once the first reply is stored the conversation can be handed to a person.
    const talk = panel.getByRole('button', { name: 'Talk to a person' }).last();
    await talk.waitFor();
    await talk.click();
    const form = panel.getByRole('form', { name: 'Talk to a person' });
    await form.waitFor();
    const note = form.getByRole('textbox', { name: 'Note (Optional)' });
    await expectNotice(page, note, 'Best reached at (412) 555-0123 after 5', false);
    await expectNotice(page, note, 'my social is 123 45 6789', true);
    await page.getByRole('link', { name: 'secure client portal (opens in a new tab)' }).scrollIntoViewIfNeeded();
    if (shots) await panel.screenshot({ path: `${shots}/ssn-handoff-390.png` });
    await expectNotice(page, note, 'my social is in the portal', false);
    expect(errors).toEqual([]);
    await context.close();
  });
});
