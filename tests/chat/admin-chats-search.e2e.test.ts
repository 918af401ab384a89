import { describe, expect, it } from 'vitest';
import { adminSessionPerFile, api, saveScreens, screenshotDir, signedInTab, uniqueEmail, waitUntil } from '../harness/e2e/admin-helpers';

// /admin/chats searched by the server (docs/product.md §4): by what was said and by the name or
// e-mail a visitor left when asking for a person, narrowed by hand-off, the search in the address.

const admin = adminSessionPerFile('/admin/chats');

describe('searching the chat conversations', () => {
  it('narrows the list by a message’s words and by a hand-off’s name, keeps it in the address and through a reload', async () => {
    const tag = `zq${Date.now().toString(36)}`;
    const plain = crypto.randomUUID();
    const handedOff = crypto.randomUUID();
    await api(admin.context, 'POST', '/api/chat', { message: `Do you prepare returns for ${tag}alpha farms?`, sessionId: plain });
    await api(admin.context, 'POST', '/api/chat', { message: `Question about ${tag}beta payroll`, sessionId: handedOff });
    await api(admin.context, 'POST', '/api/chat/handoff', { sessionId: handedOff, name: `Dana ${tag}Whitfield`, email: uniqueEmail('dana') });

    const { page, errors } = await signedInTab(admin, '/admin/chats');
    const rows = page.getByTestId('chat-session-row');
    const box = page.getByRole('searchbox', { name: 'Search conversations' });

    // A word of one conversation's message: that conversation alone.
    await box.fill(`${tag}ALPHA`);
    await box.press('Enter');
    await waitUntil(async () => (await rows.count()) === 1 && (await rows.first().textContent())!.includes(`${tag}alpha`), 'the one conversation that said it');
    expect(new URL(page.url()).searchParams.get('q')).toBe(`${tag}ALPHA`);

    // The name left with the hand-off finds the other one; the address keeps the search through a reload.
    await box.fill(`${tag}whitfield`);
    await box.press('Enter');
    await waitUntil(async () => (await rows.count()) === 1 && (await rows.first().textContent())!.includes(`${tag}beta`), 'the handed-off conversation');
    await page.reload();
    await waitUntil(async () => (await rows.count()) === 1 && (await rows.first().textContent())!.includes(`${tag}beta`), 'the same search after the reload');
    expect(await box.inputValue()).toBe(`${tag}whitfield`);

    // Both share the tag; the hand-off filter leaves the one that asked for a person.
    await box.fill(tag);
    await box.press('Enter');
    await waitUntil(async () => (await rows.count()) === 2, 'both tagged conversations');
    await page.getByRole('combobox', { name: 'Status' }).selectOption('handed-off');
    await waitUntil(async () => (await rows.count()) === 1 && (await rows.first().textContent())!.includes(`${tag}beta`), 'the handed-off one alone');
    expect(new URL(page.url()).searchParams.get('status')).toBe('handed-off');
    await page.getByRole('combobox', { name: 'Status' }).selectOption('assistant-only');
    await waitUntil(async () => (await rows.count()) === 1 && (await rows.first().textContent())!.includes(`${tag}alpha`), 'the assistant-only one alone');

    // Nothing found says so.
    await box.fill(`${tag}-nothing-like-this`);
    await box.press('Enter');
    await page.getByText('No conversations match your search.').waitFor();
    if (screenshotDir) {
      await box.fill(tag);
      await box.press('Enter');
      await page.getByRole('combobox', { name: 'Status' }).selectOption('');
      await waitUntil(async () => (await rows.count()) === 2, 'both tagged conversations again');
      await saveScreens(page, 'chats-search-1280');
    }
    expect(errors).toEqual([]);
    await page.close();
  });
});
