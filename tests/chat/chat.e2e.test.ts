import type { BrowserContext, Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserPerFile, saveScreens } from '../harness/e2e/admin-helpers';
import { runAxe } from '../harness/e2e/a11y-sweep';
import { DESKTOP, newPage, PHONE } from '../harness/e2e/browser';

const GREETING =
  "Hello! I'm your Northgate CPA assistant. I can help with questions about tax planning, business advisory, or bookkeeping services. How can I assist you today?";
const ERROR_TEXT = "I'm having trouble connecting to our services right now. Please try again later or contact us directly.";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const shared = browserPerFile();

/** A visitor who has already accepted cookies (the banner would cover the bottom of the page). */
async function visitor(viewport = DESKTOP) {
  const opened = await newPage(shared.browser, viewport);
  await opened.context.addInitScript(() => window.localStorage.setItem('cookieConsent', 'true'));
  return opened;
}

const launcher = (page: Page) => page.getByRole('button', { name: 'Chat with us' });
const panel = (page: Page) => page.getByRole('dialog', { name: 'Chat with us' });
const bubbles = (page: Page, role?: 'user' | 'assistant' | 'error') => panel(page).locator(role ? `[data-role="${role}"]` : '[data-role]');
const input = (page: Page) => panel(page).getByRole('textbox', { name: 'Type your message' });
const sendButton = (page: Page) => panel(page).getByRole('button', { name: 'Send message' });
const bubbleText = async (page: Page, index: number) => (await bubbles(page).nth(index).innerText()).replace(/^(You|Assistant|Error):\s*/, '').trim();

type FakeStreamWindow = { __chatPush(delta: string): void; __chatFinish(content: string): void; __chatAborted?: boolean };

/**
 * Replaces the page's fetch for /api/chat with a stream the test feeds: `__chatPush(delta)` sends a
 * piece, `__chatFinish(content)` the final event; `__chatAborted` records an abort (Stop).
 */
async function fakeStreamingChat(context: BrowserContext) {
  await context.addInitScript(() => {
    const realFetch = window.fetch.bind(window);
    const state = window as unknown as FakeStreamWindow;
    window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
      if (!String(input instanceof Request ? input.url : input).endsWith('/api/chat')) return realFetch(input, init);
      const signal = init?.signal;
      signal?.addEventListener('abort', () => (state.__chatAborted = true));
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          const send = (text: string) => controller.enqueue(new TextEncoder().encode(text));
          state.__chatPush = (delta) => send(`data: ${JSON.stringify({ delta })}\n\n`);
          state.__chatFinish = (content) => {
            send(`event: done\ndata: ${JSON.stringify({ done: true, sessionId: 'x', content })}\n\n`);
            controller.close();
          };
          signal?.addEventListener('abort', () => controller.error(new DOMException('The user aborted a request.', 'AbortError')));
        },
      });
      return Promise.resolve(new Response(body, { headers: { 'content-type': 'text/event-stream' } }));
    };
  });
  return {
    push: async (page: Page, delta: string) => {
      await page.waitForFunction(() => typeof (window as unknown as FakeStreamWindow).__chatPush === 'function');
      await page.evaluate((d) => (window as unknown as FakeStreamWindow).__chatPush(d), delta);
    },
    finish: (page: Page, content: string) => page.evaluate((c) => (window as unknown as FakeStreamWindow).__chatFinish(c), content),
    aborted: (page: Page) => page.evaluate(() => (window as unknown as FakeStreamWindow).__chatAborted === true),
  };
}

/** Waits until the reply has streamed in completely (its bubble is there and the input is enabled again). */
async function waitForReply(page: Page) {
  await bubbles(page, 'assistant').nth(1).waitFor();
  await expect.poll(() => input(page).isEnabled()).toBe(true);
}

async function openChat(page: Page) {
  await launcher(page).click();
  await panel(page).waitFor({ state: 'visible' });
}

/** A visitor on the home page with the chat panel open. */
async function visitorWithChatOpen(viewport = DESKTOP) {
  const opened = await visitor(viewport);
  await opened.page.goto('/');
  await openChat(opened.page);
  return opened;
}

/** A visitor who asked `question` on the home page, its streamed reply held open by fakeStreamingChat (Stop is shown). */
async function visitorAwaitingStream(question: string) {
  const opened = await visitor();
  const fake = await fakeStreamingChat(opened.context);
  await opened.page.goto('/');
  await openChat(opened.page);
  await input(opened.page).fill(question);
  await input(opened.page).press('Enter');
  await expect.poll(() => panel(opened.page).getByRole('button', { name: 'Stop' }).count()).toBe(1);
  return { ...opened, fake };
}

/** Holds each /api/chat request until release() is called, so the pending state can be observed. */
async function holdChatRequests(page: Page) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/chat', async (route) => {
    await gate;
    await route.continue();
  });
  return { release };
}

describe('the chat widget', () => {
  it('loads its code only when the visitor first opens it, then shows the greeting and the 12 suggestions', async () => {
    const { page, context, errors } = await visitor();
    const scripts: string[] = [];
    page.on('request', (request: Request) => {
      if (request.resourceType() === 'script') scripts.push(request.url());
    });
    await page.goto('/');
    await page.waitForLoadState('networkidle');
    expect(scripts.some((url) => url.includes('chat-panel'))).toBe(false);
    expect(await launcher(page).getAttribute('aria-expanded')).toBe('false');

    await openChat(page);
    expect(scripts.some((url) => url.includes('chat-panel'))).toBe(true);
    expect(await panel(page).getByRole('heading', { name: 'Chat with us' }).isVisible()).toBe(true);
    expect(await bubbles(page).count()).toBe(1);
    expect(await bubbleText(page, 0)).toBe(GREETING);
    expect(await bubbles(page, 'assistant').count()).toBe(1);

    // Twelve suggested questions in three groups of four.
    for (const group of ['Tax Planning', 'Business Advisory', 'Bookkeeping']) {
      const buttons = panel(page).getByRole('group', { name: `${group} questions` }).getByRole('button');
      expect(await buttons.count()).toBe(4);
      expect(await panel(page).getByRole('heading', { name: group }).isVisible()).toBe(true);
    }

    // The message area is 300 px high; the focus is in the panel, on the input.
    const area = await panel(page).getByLabel('Chat messages').boundingBox();
    expect(area?.height).toBe(300);
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('placeholder'))).toBe('Type your message...');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('sends a typed question: Thinking... while pending, then the answer, announced politely', async () => {
    const { page, context, errors } = await visitorWithChatOpen();
    const held = await holdChatRequests(page);
    const sent = page.waitForRequest('**/api/chat');

    await input(page).fill('What are your office hours?');
    await input(page).press('Enter');

    const request = await sent;
    const body = request.postDataJSON() as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['message', 'sessionId']);
    expect(body.message).toBe('What are your office hours?');
    expect(body.sessionId).toMatch(UUID);

    // Pending: the question shows, the input is cleared and disabled, the send button too.
    await expect.poll(() => bubbles(page, 'user').count()).toBe(1);
    expect(await bubbleText(page, 1)).toBe('What are your office hours?');
    expect(await panel(page).locator('form').getByText('Thinking...').isVisible()).toBe(true);
    expect(await input(page).isDisabled()).toBe(true);
    expect(await sendButton(page).isDisabled()).toBe(true);
    expect(await input(page).inputValue()).toBe('');
    // Suggestions show only while the list holds just the greeting.
    expect(await panel(page).getByRole('group', { name: 'Tax Planning questions' }).count()).toBe(0);

    held.release();
    await waitForReply(page);
    expect(await bubbleText(page, 2)).toContain('Monday to Friday 9:00 AM to 5:00 PM');
    await expect.poll(() => panel(page).locator('form').getByText('Thinking...').count()).toBe(0);
    expect(await input(page).isEnabled()).toBe(true);
    expect(await panel(page).getByRole('status').textContent()).toContain('Monday to Friday 9:00 AM to 5:00 PM');
    expect(await panel(page).getByRole('status').getAttribute('aria-live')).toBe('polite');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('placeholder'))).toBe('Type your message...');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('sends a suggested question when clicked, and links to the site’s pages in the answer', async () => {
    const { page, context } = await visitorWithChatOpen();
    await panel(page).getByRole('button', { name: 'How much does monthly bookkeeping cost?' }).click();
    expect(await bubbleText(page, 1)).toBe('How much does monthly bookkeeping cost?');
    await waitForReply(page);
    expect(await bubbleText(page, 2)).toContain('$100');

    const link = bubbles(page, 'assistant').nth(1).getByRole('link', { name: '/contact' });
    expect(await link.getAttribute('href')).toBe('/contact');
    await link.click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/contact');
    await context.close();
  });

  it('streams the answer: Thinking... until the first piece, then a bubble that grows, announced once finished', async () => {
    const { page, context, errors } = await visitorWithChatOpen();
    let accept: string | undefined;
    page.on('request', (request) => {
      if (request.url().endsWith('/api/chat')) accept = request.headers()['accept'];
    });
    // Every change of the reply's bubble and of the screen-reader announcement, as the page saw it.
    await page.evaluate(() => {
      const panelElement = document.getElementById('chat-panel')!;
      const seen = { lengths: [] as { length: number; thinking: boolean; disabled: boolean }[], announcements: [] as string[] };
      (window as unknown as { __seen: typeof seen }).__seen = seen;
      new MutationObserver(() => {
        const replies = panelElement.querySelectorAll('[data-role="assistant"]');
        const announcement = panelElement.querySelector('[role="status"]')!.textContent ?? '';
        if (announcement && seen.announcements.at(-1) !== announcement) seen.announcements.push(announcement);
        if (replies.length < 2) return;
        const length = replies[replies.length - 1].textContent!.length;
        if (seen.lengths.at(-1)?.length === length) return;
        seen.lengths.push({
          length,
          thinking: panelElement.querySelector('form')!.textContent!.includes('Thinking...'),
          disabled: panelElement.querySelector('input')!.disabled,
        });
      }).observe(panelElement, { subtree: true, childList: true, characterData: true });
    });

    await input(page).fill('What are your office hours?');
    await input(page).press('Enter');
    await expect.poll(() => input(page).isEnabled()).toBe(true);
    expect(accept).toBe('text/event-stream');
    expect(await bubbleText(page, 2)).toContain('Monday to Friday 9:00 AM to 5:00 PM');

    const seen = await page.evaluate(() => (window as unknown as { __seen: { lengths: { length: number; thinking: boolean; disabled: boolean }[]; announcements: string[] } }).__seen);
    // The bubble grew in several steps while the input stayed disabled and "Thinking..." was gone.
    expect(seen.lengths.length).toBeGreaterThan(3);
    for (let i = 1; i < seen.lengths.length; i++) expect(seen.lengths[i].length).toBeGreaterThan(seen.lengths[i - 1].length);
    expect(seen.lengths.slice(0, -1).every((step) => step.disabled && !step.thinking)).toBe(true);
    // Screen readers heard "Thinking..." and then the finished reply, never the pieces.
    expect(seen.announcements).toHaveLength(2);
    expect(seen.announcements[0]).toBe('Thinking...');
    expect(seen.announcements[1]).toBe(await bubbleText(page, 2));
    expect(errors).toEqual([]);
    await context.close();
  });

  it('Stop ends the request; the partial answer stays, marked as stopped, and the input is enabled again', async () => {
    const { page, context, errors, fake } = await visitorAwaitingStream('Do you offer payroll services?');
    await fake.push(page, 'We run payroll for ');
    await expect.poll(() => bubbles(page, 'assistant').count()).toBe(2);
    expect(await input(page).isDisabled()).toBe(true);
    expect(await panel(page).locator('form').getByText('Thinking...').count()).toBe(0);

    await panel(page).getByRole('button', { name: 'Stop' }).click();
    await expect.poll(() => input(page).isEnabled()).toBe(true);
    expect(await fake.aborted(page)).toBe(true);
    expect(await bubbleText(page, 2)).toMatch(/^We run payroll for\s*\(Stopped\)$/);
    expect(await bubbles(page, 'error').count()).toBe(0);
    expect(await panel(page).getByRole('button', { name: 'Stop' }).count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('keeps the newest text in view while the reply grows, unless the visitor scrolls up', async () => {
    const { page, context, fake } = await visitorAwaitingStream('Tell me everything about payroll');
    const list = panel(page).getByLabel('Chat messages');
    const distanceFromBottom = () => list.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);
    const line = 'Payroll includes tax filings, direct deposit and year-end forms for every employee.\n';
    for (let i = 0; i < 8; i++) await fake.push(page, line);
    await expect.poll(() => bubbleText(page, 2)).toContain(line.repeat(8).trim());
    expect(await list.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
    await expect.poll(distanceFromBottom).toBeLessThan(2);

    // The visitor scrolls up to read: more text arrives, the view stays where they put it.
    await list.hover();
    await page.mouse.wheel(0, -5000);
    await expect.poll(() => list.evaluate((el) => el.scrollTop)).toBe(0);
    // The scroll event is delivered with the next frame.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    for (let i = 0; i < 4; i++) await fake.push(page, line);
    await expect.poll(() => bubbleText(page, 2)).toContain(line.repeat(12).trim());
    expect(await list.evaluate((el) => el.scrollTop)).toBe(0);
    await fake.finish(page, line.repeat(12).trim());
    await expect.poll(() => input(page).isEnabled()).toBe(true);
    expect(await list.evaluate((el) => el.scrollTop)).toBe(0);
    await context.close();
  });

  it('keeps the partial answer and shows the error bubble when the stream fails midway', async () => {
    const { page, context } = await visitorWithChatOpen();
    await page.route('**/api/chat', (route) =>
      route.fulfill({
        status: 200,
        contentType: 'text/event-stream',
        body: `data: ${JSON.stringify({ delta: 'Payroll starts ' })}\n\nevent: error\ndata: ${JSON.stringify({ done: false, error: 'The reply was interrupted.' })}\n\n`,
      }),
    );
    await input(page).fill('Do you offer payroll services?');
    await input(page).press('Enter');
    await bubbles(page, 'error').waitFor();
    expect(await bubbleText(page, 2)).toMatch(/^Payroll starts\s*\(Interrupted\)$/);
    expect(await bubbleText(page, 3)).toBe(ERROR_TEXT);
    expect(await input(page).isEnabled()).toBe(true);
    await context.close();
  });

  it('ignores a blank message', async () => {
    const { page, context } = await visitorWithChatOpen();
    let requests = 0;
    page.on('request', (request) => {
      if (request.url().endsWith('/api/chat')) requests++;
    });
    await input(page).fill('    ');
    await input(page).press('Enter');
    await sendButton(page).click();
    await page.waitForTimeout(300);
    expect(requests).toBe(0);
    expect(await bubbles(page).count()).toBe(1);
    await context.close();
  });

  it.each([
    [500, 'a server error'],
    [429, 'throttling'],
  ])('shows the error bubble on %i (%s) and clears the input', async (status) => {
    const { page, context } = await visitorWithChatOpen();
    await page.route('**/api/chat', (route) =>
      route.fulfill({ status, contentType: 'application/json', body: JSON.stringify({ message: 'nope' }) }),
    );
    await input(page).fill('Do you offer payroll services?');
    await sendButton(page).click();
    await bubbles(page, 'error').waitFor();
    expect(await bubbleText(page, 2)).toBe(ERROR_TEXT);
    expect(await bubbles(page).count()).toBe(3);
    expect(await input(page).inputValue()).toBe('');
    expect(await input(page).isEnabled()).toBe(true);
    await context.close();
  });

  it('closes with Escape or the close button, returns the focus, and resets on every open', async () => {
    const { page, context } = await visitor();
    const sessionIds: unknown[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/chat')) sessionIds.push((request.postDataJSON() as { sessionId: string }).sessionId);
    });
    await page.goto('/');
    await openChat(page);
    await input(page).fill('Do you offer payroll services?');
    await input(page).press('Enter');
    await waitForReply(page);

    await page.keyboard.press('Escape');
    await panel(page).waitFor({ state: 'detached' });
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Chat with us');

    await openChat(page);
    expect(await bubbles(page).count()).toBe(1);
    expect(await bubbleText(page, 0)).toBe(GREETING);
    expect(await panel(page).getByRole('group', { name: 'Bookkeeping questions' }).getByRole('button').count()).toBe(4);

    await panel(page).getByRole('button', { name: 'Close chat' }).click();
    await panel(page).waitFor({ state: 'detached' });

    // Keyboard only: Enter on the focused launcher opens it again.
    await launcher(page).focus();
    await page.keyboard.press('Enter');
    await panel(page).waitFor({ state: 'visible' });
    await input(page).fill('Is the initial consultation free?');
    await input(page).press('Enter');
    await waitForReply(page);
    expect(await bubbleText(page, 2)).toContain('free');

    // One session per widget instance.
    expect(sessionIds).toHaveLength(2);
    expect(sessionIds[0]).toMatch(UUID);
    expect(sessionIds[1]).toBe(sessionIds[0]);
    await context.close();
  });

  it('renders a reply as text, never as HTML', async () => {
    const { page, context, errors } = await visitorWithChatOpen();
    const content = '<img src=x onerror="window.__pwned=1"><b>bold</b> see https://evil.example/contact';
    await page.route('**/api/chat', (route) =>
      route.fulfill({
        status: 200,
        contentType: 'text/event-stream',
        body: [
          `data: ${JSON.stringify({ delta: content.slice(0, 20) })}\n\n`,
          `data: ${JSON.stringify({ delta: content.slice(20) })}\n\n`,
          `event: done\ndata: ${JSON.stringify({ done: true, sessionId: 'x', content })}\n\n`,
        ].join(''),
      }),
    );
    await input(page).fill('Hi');
    await input(page).press('Enter');
    await bubbles(page).nth(2).waitFor();
    expect(await bubbles(page).nth(2).getAttribute('data-role')).toBe('assistant');
    expect(await bubbleText(page, 2)).toBe('<img src=x onerror="window.__pwned=1"><b>bold</b> see https://evil.example/contact');
    expect(await bubbles(page, 'assistant').nth(1).locator('img, b, a').count()).toBe(0);
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('has no accessibility violations in the open panel, before and after a conversation', async () => {
    const { page, context } = await visitorWithChatOpen();
    const audit = async () => (await runAxe(page, { include: ['#chat-panel'] })).map((v) => `${v.id}: ${v.help}`);
    expect(await audit()).toEqual([]);
    await input(page).fill('Do you offer payroll services?');
    await input(page).press('Enter');
    await waitForReply(page);
    expect(await audit()).toEqual([]);
    expect(await runAxe(page, { include: ['button[aria-controls="chat-panel"]'] })).toEqual([]);
    await context.close();
  });

  it.each([
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ])('fits the %s screen (screenshot)', async (name, viewport) => {
    const { page, context } = await visitorWithChatOpen(viewport);
    await saveScreens(page, `chat-${name}-open`);
    await input(page).fill('How much does an individual tax return cost?');
    await input(page).press('Enter');
    await waitForReply(page);
    const box = await panel(page).boundingBox();
    expect(box).not.toBeNull();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(viewport.width);
    expect(box!.y).toBeGreaterThanOrEqual(0);
    await saveScreens(page, `chat-${name}-answer`);
    await context.close();
  });
});
