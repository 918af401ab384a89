import { describe, expect, it } from 'vitest';
import { api, browserPerFile, expectToastSaying, saveScreens, signInThroughCard, uniqueEmail, waitUntil } from '../harness/e2e/admin-helpers';
import { newPage, PHONE } from '../harness/e2e/browser';

// The send dialog's "Send a test" (docs/product.md §6.3): the issue goes to one address, marked
// [TEST], shows in the e-mail log, and the sent-newsletters history does not grow.

const shared = browserPerFile();

type EmailEntry = { to: string; subject: string; kind: string; status: string; headers: Record<string, string> | null; htmlBody: string | null };

describe('send a test from the Send Newsletter dialog', () => {
  it('sends this issue to one address, shows it in the e-mail log, and records no newsletter', async () => {
    const { page, context, errors } = await newPage(shared.browser);
    await signInThroughCard(page, '/admin/subscribers');
    const historyBefore = await api<unknown[]>(context, 'GET', '/api/admin/sent-newsletters');
    const subscribersBefore = await api<unknown[]>(context, 'GET', '/api/admin/subscribers');

    await page.getByRole('button', { name: 'Send Newsletter' }).click();
    const dialog = page.getByRole('dialog', { name: 'Send Newsletter' });
    const subject = `Test-send issue ${Date.now()}`;
    await dialog.getByLabel('Subject').fill(subject);
    await dialog.getByLabel('HTML Content').fill('<h2>Preview me</h2><p>Only for the author.</p>');
    const address = dialog.getByLabel('Send a test to');
    expect(await address.inputValue()).toBe('');

    await dialog.getByRole('button', { name: 'Send a test' }).click();
    await dialog.getByText('Please enter an email address').waitFor();
    const to = uniqueEmail('author');
    await address.fill(to);
    await dialog.getByRole('button', { name: 'Send a test' }).click();
    await expectToastSaying(page, 'Test sent', to);
    // The dialog stays open for the real send.
    expect(await dialog.isVisible()).toBe(true);
    await saveScreens(page, 'send-test-dialog-1280');

    const emails = await api<EmailEntry[]>(context, 'GET', '/api/admin/emails');
    const test = emails.find((e) => e.to === to);
    expect(test).toMatchObject({ subject: `[TEST] ${subject}`, kind: 'newsletter-test', status: 'stored', headers: null });
    expect(test!.htmlBody).toContain('<h2>Preview me</h2>');
    expect(test!.htmlBody).toContain('/newsletter/unsubscribe?token=test-send');
    expect(await api<unknown[]>(context, 'GET', '/api/admin/sent-newsletters')).toEqual(historyBefore);
    expect(await api<unknown[]>(context, 'GET', '/api/admin/subscribers')).toEqual(subscribersBefore);

    // The admin's e-mail log shows it.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await page.goto('/admin');
    const logRow = page.getByTestId('email-log-row').filter({ hasText: `[TEST] ${subject}` });
    await waitUntil(async () => (await logRow.count()) === 1, 'the test in the e-mail log');
    expect(await logRow.textContent()).toContain('newsletter-test');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('fits a phone screen', async () => {
    const { page, context } = await newPage(shared.browser, PHONE);
    await signInThroughCard(page, '/admin/subscribers');
    await page.getByRole('button', { name: 'Send Newsletter' }).click();
    const dialog = page.getByRole('dialog', { name: 'Send Newsletter' });
    await dialog.getByLabel('Send a test to').scrollIntoViewIfNeeded();
    const box = (await dialog.getByRole('button', { name: 'Send a test' }).boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    await saveScreens(page, 'send-test-dialog-390');
    await context.close();
  });
});
