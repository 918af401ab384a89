import { describe, expect, it } from 'vitest';
import { adminSessionPerFile, api, expectToastSaying, saveScreensAtBothWidths } from '../harness/e2e/admin-helpers';

// docs/product.md §6.6, the content screens: the administrator edits an FAQ answer and the phone
// number, saves the draft, publishes it, finds the version in the history with its diff, and
// restores the version before it. The restore publishes the previous content again, so the files
// sharing this server see the site's text as it was (tests/content/published-content.e2e.test.ts covers
// the public pages).

interface ContentState {
  published: { version: number; publishedBy: string | null; content: { firm: { contact: { phone: string } }; faq: { items: { answer: string }[] } } };
  draft: { basedOn: number } | null;
}

const admin = adminSessionPerFile('/admin');

describe('the content screens', () => {
  it('edit the FAQ answer and the phone number, save the draft, publish, see the diff in the history, restore', async () => {
    const { page, context, errors } = admin;
    const before = await api<ContentState>(context, 'GET', '/api/admin/content');
    const start = before.published.version;
    const oldPhone = before.published.content.firm.contact.phone;
    const answer = `Yes: we file in every state. Edited ${Date.now()}.`;
    const phone = '(724) 555-0177';

    // From the admin panel to the content index and the FAQ screen.
    await page.goto('/admin');
    await page.getByRole('link', { name: 'Content', exact: true }).click();
    await page.getByRole('heading', { name: 'Site content', level: 1 }).waitFor();
    await saveScreensAtBothWidths(page, 'content-index');
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: /^FAQ/ }).click();
    await page.getByRole('heading', { name: 'FAQ', level: 1 }).waitFor();
    await page.locator('#content-faq-items-0-entry > summary').click();
    await page.locator('#content-faq-items-0-answer').fill(answer);
    await saveScreensAtBothWidths(page, 'content-faq');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await expectToastSaying(page, 'Draft saved');

    // The phone number on the firm's screen: the draft now holds both edits.
    await page.getByRole('link', { name: 'Site content' }).first().click();
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: /^Firm details/ }).click();
    await page.getByRole('heading', { name: 'Firm details', level: 1 }).waitFor();
    await page.getByLabel('Phone', { exact: true }).fill(phone);
    await page.getByRole('button', { name: 'Save draft' }).click();
    await expectToastSaying(page, 'Draft saved');
    const drafted = await api<ContentState>(context, 'GET', '/api/admin/content');
    expect(drafted.draft?.basedOn).toBe(start);
    expect(drafted.published.version).toBe(start);

    // Publish from the index.
    await page.getByRole('link', { name: 'Site content' }).first().click();
    await page.getByTestId('content-draft-state').getByText(/saved by/).waitFor();
    await page.getByRole('button', { name: 'Publish' }).click();
    await expectToastSaying(page, `Version ${start + 1} published`);
    const live = await api<ContentState>(context, 'GET', '/api/admin/content');
    expect(live.published.version).toBe(start + 1);
    expect(live.published.content.firm.contact.phone).toBe(phone);
    expect(live.published.content.faq.items[0].answer).toBe(answer);
    expect(live.draft).toBeNull();

    // The history: who, and the diff against the version before.
    await page.getByRole('link', { name: 'History' }).click();
    await page.getByRole('heading', { name: 'Content history', level: 1 }).waitFor();
    const published = page.locator(`[data-testid="content-version"][data-version="${start + 1}"]`);
    await published.getByText(/Published by e2e-admin on/).waitFor();
    await published.locator('li', { hasText: 'firm.contact.phone' }).getByText(`“${phone}”`).waitFor();
    await published.locator('li', { hasText: 'faq.items.0.answer' }).getByText(`“${answer}”`).waitFor();
    await saveScreensAtBothWidths(page, 'content-history');

    // Restore the version before, after confirming.
    await page.getByRole('button', { name: `Restore version ${start}` }).click();
    const dialog = page.getByRole('dialog', { name: `Restore version ${start}?` });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Restore', exact: true }).click();
    await expectToastSaying(page, `Version ${start} restored`, `It is live again as version ${start + 2}.`);
    await page.locator(`[data-testid="content-version"][data-version="${start + 2}"]`).getByText(`a copy of version ${start}`).waitFor();
    const restored = await api<ContentState>(context, 'GET', '/api/admin/content');
    expect(restored.published.version).toBe(start + 2);
    expect(restored.published.content.firm.contact.phone).toBe(oldPhone);
    expect(errors).toEqual([]);
  }, 120_000);
});
