import { describe, expect, it } from 'vitest';
import { adminSessionPerFile, api, expectToastSaying, saveScreensAtBothWidths, screenshotDir, waitUntil } from '../harness/e2e/admin-helpers';
import { DESKTOP, SCREEN_SIZES } from '../harness/e2e/browser';

// docs/product.md §6.6, the content screens: the administrator edits an FAQ answer and the phone
// number, saves the draft, publishes it, finds the version in the history with its diff, and
// restores the version before it. The restore publishes the previous content again, so the files
// sharing this server see the site's text as it was (tests/content/published-content.e2e.test.ts covers
// the public pages).

interface ContentState {
  published: {
    version: number;
    publishedBy: string | null;
    content: { firm: { tagline: string; contact: { phone: string; email: string }; links: { payNow: string } }; faq: { items: { answer: string }[] } };
  };
  draft: { basedOn: number; revision: number } | null;
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

    // Publish from the index, after its confirmation lists both changes.
    await page.getByRole('link', { name: 'Site content' }).first().click();
    await page.getByTestId('content-draft-state').getByText(/saved by/).waitFor();
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    const confirm = page.getByRole('dialog', { name: 'Publish these changes?' });
    await confirm.locator('[data-testid="publish-change"][data-path="firm.contact.phone"]').getByText(`“${phone}”`).waitFor();
    await confirm.locator('[data-testid="publish-change"][data-path="faq.items.0.answer"]').getByText('FAQ › Questions › Question 1 ›').waitFor();
    await confirm.getByRole('button', { name: `Publish version ${start + 1}` }).click();
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
    // When, on the firm's clock with its zone; each change named as the screens name the field (docs/product.md §6.7).
    await published.getByText(/Published by e2e-admin on .+\s[AP]M ET/).waitFor();
    const phoneChange = published.locator('[data-testid="history-change"][data-path="firm.contact.phone"]');
    await phoneChange.getByText(`“${phone}”`).waitFor();
    expect(await phoneChange.textContent()).toMatch(/^Firm details › Contact › Phone changed from/);
    const answerChange = published.locator('[data-testid="history-change"][data-path="faq.items.0.answer"]');
    await answerChange.getByText(`“${answer}”`).waitFor();
    expect(await answerChange.textContent()).toMatch(/^FAQ › Questions › Question 1 › Answer changed from/);
    expect(await published.textContent()).not.toMatch(/firm\.contact|faq\.items/);
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

  it('Publish lists the changes against the live version, flags the e-mail and payment links, and publishes only the draft it showed', async () => {
    const { page, context, errors } = admin;
    const before = await api<ContentState>(context, 'GET', '/api/admin/content');
    const start = before.published.version;
    const live = before.published.content;
    const tagline = `${live.firm.tagline} Reviewed ${Date.now()}.`;
    // Someone's draft: the firm's notification address and the Pay Now link, beside a harmless tagline.
    const risky = structuredClone(live);
    risky.firm.tagline = tagline;
    risky.firm.contact.email = 'billing@pay-example.net';
    risky.firm.links.payNow = 'https://pay-example.net/acme-cpa';
    await api(context, 'PUT', '/api/admin/content/draft', { basedOn: start, content: risky });

    await page.goto('/admin/content');
    await page.getByTestId('content-draft-state').getByText(/saved by/).waitFor();
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    const confirm = page.getByRole('dialog', { name: 'Publish these changes?' });
    const flagged = confirm.getByTestId('publish-flagged');
    await flagged.getByRole('heading', { name: /^Check these first: 2 changes move/ }).waitFor();
    const email = flagged.locator('[data-testid="publish-change"][data-path="firm.contact.email"]');
    await email.getByText('E-mail address', { exact: true }).waitFor();
    await email.getByText('Firm details › Contact ›').waitFor();
    await email.getByText(`“${live.firm.contact.email}”`).waitFor();
    await email.getByText('“billing@pay-example.net”').waitFor();
    await email.getByText(/^Saved by e2e-admin on /).waitFor();
    const pay = flagged.locator('[data-testid="publish-change"][data-path="firm.links.payNow"]');
    await pay.getByText('Payment link', { exact: true }).waitFor();
    await pay.getByText('Pay Now address').waitFor();
    await pay.getByText('“https://pay-example.net/acme-cpa”').waitFor();
    // The tagline is listed too, not flagged.
    const other = confirm.locator('[data-testid="publish-change"][data-path="firm.tagline"]');
    await other.getByText(`“${tagline}”`).waitFor();
    expect(await other.getAttribute('data-flag')).toBe('');
    // A dialog is fixed to the viewport: shot as the screen shows it, not as a full page behind it.
    for (const [width, viewport] of SCREEN_SIZES) {
      await page.setViewportSize(viewport);
      if (screenshotDir) await page.screenshot({ path: `${screenshotDir}/publish-confirm-${width}.png` });
    }
    await page.setViewportSize(DESKTOP);

    // Meanwhile the draft is saved again (another admin took the links back out): the confirmed
    // revision is no longer the draft, so nothing is published, a toast says why and the list is read again.
    const shownRevision = await confirm.getByTestId('publish-review').getAttribute('data-revision');
    const safe = structuredClone(live);
    safe.firm.tagline = tagline;
    await api(context, 'PUT', '/api/admin/content/draft', { basedOn: start, content: safe });
    await confirm.getByRole('button', { name: `Publish version ${start + 1}` }).click();
    await expectToastSaying(page, 'Not published', 'the draft changed since you reviewed it');
    await waitUntil(async () => (await confirm.getByTestId('publish-review').getAttribute('data-revision')) !== shownRevision, 'the list read again');
    await waitUntil(async () => (await confirm.getByTestId('publish-flagged').count()) === 0, 'no flagged change left');
    expect((await api<ContentState>(context, 'GET', '/api/admin/content')).published.version).toBe(start);

    // Published as now shown: the tagline alone.
    await confirm.getByRole('button', { name: `Publish version ${start + 1}` }).click();
    await expectToastSaying(page, `Version ${start + 1} published`);
    const after = await api<ContentState>(context, 'GET', '/api/admin/content');
    expect(after.published.version).toBe(start + 1);
    expect(after.published.content.firm.tagline).toBe(tagline);
    expect(after.published.content.firm.contact.email).toBe(live.firm.contact.email);
    expect(after.published.content.firm.links.payNow).toBe(live.firm.links.payNow);
    // The site back as it was, for the files sharing this server.
    await api(context, 'POST', '/api/admin/content/restore', { version: start });
    // The refused publish is the one error the browser logs.
    expect(errors.filter((e) => !e.includes('status of 409'))).toEqual([]);
  }, 120_000);
});
