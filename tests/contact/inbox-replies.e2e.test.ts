import { describe, expect, inject, it } from 'vitest';
import { api, browserPerFile, expectToastSaying, signInThroughCard, uniqueEmail, waitUntil } from '../harness/e2e/admin-helpers';
import { newPage, PHONE } from '../harness/e2e/browser';
import { AUDIT_ACTION_LABELS } from '#core/audit-labels';

// docs/product.md §6.2 and §6.8: the firm replies to a visitor's message from the inbox, the
// conversation shows under the message with "Replied", and the owner finds the reply (and the
// sign-in before it) in the audit trail, on a desktop and on a phone.

const shared = browserPerFile();

describe('a reply from the inbox', () => {
  it('is sent from the composer, shows under the message as "Replied", and appears in the audit trail', async () => {
    const { page, context, errors } = await newPage(shared.browser);
    const email = uniqueEmail('reply');
    await api(context, 'POST', '/api/contact', { name: 'Rita Replyme', email, message: 'Can you help with a late 1099?\nThanks, Rita' });
    await signInThroughCard(page);
    const { username } = inject('admin');

    const card = page.getByTestId('message-card').filter({ hasText: email });
    await card.waitFor();
    expect(await card.getByTestId('replied-badge').count()).toBe(0);
    await card.getByRole('button', { name: 'Reply', exact: true }).click();
    const composer = card.getByRole('form', { name: 'Reply to Rita Replyme' });
    await composer.waitFor();
    // An empty reply is refused on the spot, with the server's own message.
    await composer.getByRole('button', { name: 'Send reply' }).click();
    await composer.getByText('Please write a reply').waitFor();
    await composer.getByText('Show the quoted message').click();
    expect(await composer.getByTestId('reply-quote').textContent()).toContain('> Can you help with a late 1099?\n> Thanks, Rita');
    await composer.getByLabel('Your reply to Rita Replyme').fill('Yes, we can. Please send us the form.');
    await composer.getByRole('button', { name: 'Send reply' }).click();
    await expectToastSaying(page, 'Reply sent', `Reply sent to ${email}`);
    await composer.waitFor({ state: 'detached' });
    const item = card.getByTestId('reply-item');
    await item.waitFor();
    expect(await item.textContent()).toContain(`${username} replied on`);
    expect(await item.textContent()).toContain('Yes, we can. Please send us the form.');
    // "Replied" is the inbox list's own field (lastRepliedAt): read afresh from the server.
    await page.reload();
    await card.getByTestId('replied-badge').waitFor({ timeout: 60_000 });

    // The e-mail is in the log, threaded under the firm's notification.
    const log = await api<{ kind: string; to: string }[]>(context, 'GET', '/api/admin/emails');
    expect(log.some((e) => e.kind === 'contact-reply' && e.to === email)).toBe(true);

    // The owner sees the reply and the sign-in in the audit trail, and can narrow it to replies.
    await page.getByRole('link', { name: 'Audit Trail' }).click();
    await page.getByRole('heading', { level: 1, name: 'Audit Trail' }).waitFor();
    const rows = page.getByTestId('audit-row');
    const replied = AUDIT_ACTION_LABELS['contact.reply'];
    await rows.filter({ hasText: replied }).first().waitFor();
    const { id } = (await api<{ id: number; email: string }[]>(context, 'GET', '/api/admin/contact-messages')).find((m) => m.email === email)!;
    expect(await rows.filter({ hasText: replied }).first().textContent()).toContain(`Contact message ${id}`);
    expect(await rows.filter({ hasText: AUDIT_ACTION_LABELS['auth.sign-in'] }).count()).toBeGreaterThan(0);
    await page.getByLabel('Action').selectOption('contact.reply');
    await page.getByRole('button', { name: 'Apply' }).click();
    await waitUntil(async () => (await rows.count()) > 0 && (await rows.filter({ hasNotText: replied }).count()) === 0, 'only replies listed');
    expect(await page.getByRole('link', { name: 'Export CSV' }).getAttribute('href')).toBe('/api/admin/audit/export?action=contact.reply');
    expect(errors).toEqual([]);

    // On a phone, the same entries as a list.
    const phone = await newPage(shared.browser, PHONE);
    await phone.context.addCookies(await context.cookies());
    await phone.page.goto('/admin/audit');
    await phone.page.getByTestId('audit-item').filter({ hasText: replied }).first().waitFor();
    expect(phone.errors).toEqual([]);
    await phone.context.close();
    await context.close();
    // A long flow on two screens (the other browser flows of the back office get as long).
  }, 180_000);
});
