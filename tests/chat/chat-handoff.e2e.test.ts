import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CHAT_HANDOFF_SUCCESS_MESSAGE } from '#core/schemas/chat';
import { browserPerFile, signInThroughCard, uniqueEmail, waitUntil } from '../harness/e2e/admin-helpers';
import { DESKTOP, newPage, PHONE } from '../harness/e2e/browser';

// docs/product.md §4: answers show their source; §4.2: a conversation handed to a person arrives
// in the admin's inbox with its transcript, read from the server. Real worker, offline assistant.

const shared = browserPerFile();

const panel = (page: Page) => page.getByRole('dialog', { name: 'Chat with us' });
const input = (page: Page) => panel(page).getByRole('textbox', { name: 'Type your message' });
const replies = (page: Page) => panel(page).locator('[data-role="assistant"]');

async function visitor(viewport = DESKTOP) {
  const opened = await newPage(shared.browser, viewport);
  await opened.context.addInitScript(() => window.localStorage.setItem('cookieConsent', 'true'));
  return opened;
}

/** Sends a message and waits until its reply is complete (the input is enabled again). */
async function ask(page: Page, message: string) {
  const before = await replies(page).count();
  await input(page).fill(message);
  await panel(page).getByRole('button', { name: 'Send message' }).click();
  await waitUntil(async () => (await replies(page).count()) > before && (await input(page).isEnabled()), `the reply to "${message}"`);
  return replies(page).nth(before);
}

describe('chat sources and the hand-off to a person', () => {
  for (const [label, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
    it(`links the page an answer relied on, and hands the conversation to the firm (${label})`, async () => {
      const { page, context, errors } = await visitor(viewport);
      await page.goto('/services');
      await page.getByRole('button', { name: 'Chat with us' }).click();
      await panel(page).waitFor();
      // No conversation on the server yet: nothing to hand off.
      expect(await panel(page).getByRole('button', { name: 'Talk to a person' }).count()).toBe(0);

      const question = `How much does monthly bookkeeping cost? (${label})`;
      const answer = await ask(page, question);
      expect(await answer.innerText()).toContain('$100');
      const source = answer.getByRole('link', { name: 'FAQ' });
      expect(await source.getAttribute('href')).toBe('/faq');
      expect(await answer.innerText()).toMatch(/Source: FAQ/);

      // Asking for a person: the reply offers the hand-off right under it.
      const offer = await ask(page, 'Can I talk to a real person?');
      await offer.getByRole('button', { name: 'Talk to a person' }).click();
      const form = panel(page).getByRole('form', { name: 'Talk to a person' });
      await form.waitFor();
      await waitUntil(async () => (await page.evaluate(() => document.activeElement?.getAttribute('name'))) === 'name', 'focus on the name field');

      // Checked by the API's own schema before anything is sent.
      await form.getByRole('button', { name: 'Send to our team' }).click();
      await form.getByText('Name is required').waitFor();
      expect(await form.getByText('Please enter a valid email address').isVisible()).toBe(true);

      const email = uniqueEmail(`handoff-${label}`);
      await form.getByLabel('Name').fill('Robin Handoff');
      await form.getByLabel('Email').fill(email);
      await form.getByLabel('Phone (Optional)').fill('412-555-0107');
      await form.getByLabel('Note (Optional)').fill('Mornings are best.');
      await form.getByRole('button', { name: 'Send to our team' }).click();
      await replies(page).filter({ hasText: CHAT_HANDOFF_SUCCESS_MESSAGE }).waitFor();
      await form.waitFor({ state: 'detached' });
      expect(await panel(page).getByRole('status').textContent()).toBe(CHAT_HANDOFF_SUCCESS_MESSAGE);
      // Sent once: the action is gone, the conversation can go on.
      expect(await panel(page).getByRole('button', { name: 'Talk to a person' }).count()).toBe(0);
      expect(await input(page).isEnabled()).toBe(true);
      expect(errors).toEqual([]);
      await context.close();

      // The administrator sees it in the inbox, with the note and the transcript from the server.
      const admin = await newPage(shared.browser);
      await signInThroughCard(admin.page);
      const card = admin.page.getByTestId('message-card').filter({ hasText: email });
      await card.waitFor();
      const text = (await card.getByTestId('message-text').textContent()) ?? '';
      expect(text).toContain('Note from the visitor: Mornings are best.');
      expect(text).toMatch(new RegExp(`Visitor \\([^)]+\\): ${question.replace(/[?()$]/g, '\\$&')}`));
      expect(text).toContain('Assistant (');
      expect(text).toContain('Visitor (');
      expect(text).toContain('Can I talk to a real person?');
      expect(await card.textContent()).toContain('412-555-0107');
      await admin.context.close();
    });
  }
});
