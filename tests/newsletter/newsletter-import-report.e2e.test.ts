import { readMailbox } from '../../scripts/lib/local-mailbox';
import { describe, expect, it } from 'vitest';
import { adminSessionPerFile, api, expectToastSaying, saveScreensAtBothWidths, uniqueEmail, waitUntil } from '../harness/e2e/admin-helpers';
import { confirmedSubscriber } from '../harness/e2e/admin-newsletter-helpers';
import { baseUrl, stack } from '../harness/e2e/browser';

// The subscriber CSV import (dry run, then confirm) and the report per issue (docs/product.md
// §5.10, §5.11), driven as the administrator drives them on /admin/subscribers.

const admin = adminSessionPerFile('/admin/subscribers');

type Subscriber = { email: string; active: string; name: string | null };

/** The HTML of one e-mail of this newsletter in the stack's mailbox (its click links whole: the e-mail log keeps no token). */
function newsletterHtml(subject: string): string | undefined {
  return readMailbox(stack().mailDir).find((m) => m.kind === 'newsletter' && m.subject === subject)?.html;
}

describe('subscriber import', () => {
  it('reads the file, shows the dry run (new, already subscribed, duplicates, invalid with lines), and imports only after the consent is confirmed', async () => {
    const { context, page } = admin;
    const pending = uniqueEmail('import-pending');
    await api(context, 'POST', '/api/newsletter/subscribe', { email: pending });
    const first = uniqueEmail('import-new-a');
    const second = uniqueEmail('import-new-b');
    // A Mailchimp-style export: its own column names and order, quoted cells.
    const csv = [
      '"First Name","Email Address","Last Name","OPTIN_TIME"',
      `"Iris","${first}","Import","2024-02-01 09:00:00"`,
      `"Pat","${pending}","Pending",""`,
      `"Nope","not-an-address","",""`,
      `"Iris","${first.toUpperCase()}","Again",""`,
      `"Otto","${second}","Other",""`,
    ].join('\r\n');
    // Chosen as a file the browser reads, without one on disk (nothing left behind in a temporary directory).
    const file = { name: 'mailchimp-members.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) };

    await page.goto('/admin/subscribers');
    await page.getByRole('button', { name: 'Import CSV' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import Subscribers' });
    await dialog.getByLabel('CSV file').setInputFiles(file);
    await dialog.getByText('Dry run: mailchimp-members.csv, 5 rows').waitFor({ timeout: 30_000 });
    const count = async (id: string) => (await dialog.getByTestId(id).textContent())?.trim();
    expect(await count('import-new')).toBe('2');
    expect(await count('import-existing')).toBe('1');
    expect(await count('import-duplicates')).toBe('1');
    expect(await count('import-invalid')).toBe('1');
    expect(await count('import-suppressed')).toBe('0');
    await dialog.getByText('Invalid rows (1)').click();
    await dialog.getByText('Line 4: not-an-address: Not a valid e-mail address').waitFor();
    await dialog.getByText('Duplicates in the file (1)').click();
    await dialog.getByText(`Line 5: ${first} (already earlier in the file)`).waitFor();
    await saveScreensAtBothWidths(page, 'import-dry-run');

    // Nothing imported yet, and the button waits for both choices.
    const list = () => api<Subscriber[]>(context, 'GET', '/api/admin/subscribers');
    expect((await list()).some((s) => s.email === first)).toBe(false);
    const importButton = dialog.getByRole('button', { name: 'Import 2 Subscribers' });
    expect(await importButton.isDisabled()).toBe(true);
    await dialog.getByLabel(/^Consent already given/).check();
    expect(await importButton.isDisabled()).toBe(true);
    await dialog.getByLabel('I confirm that these people agreed to receive our newsletter').check();
    await importButton.click();
    await expectToastSaying(page, 'Import complete', '2 subscribers imported');
    await dialog.getByText(/2 subscribers imported as active subscribers\. Recorded: mailchimp-members\.csv, confirmed by/).waitFor();
    await saveScreensAtBothWidths(page, 'import-done');
    await dialog.getByRole('button', { name: 'Done', exact: true }).click();

    const after = await list();
    expect(after.find((s) => s.email === first)).toMatchObject({ active: 'true', name: 'Iris Import' });
    expect(after.find((s) => s.email === second)).toMatchObject({ active: 'true' });
    expect(after.find((s) => s.email === pending)).toMatchObject({ active: 'false' });
    // The table shows them as the list reloads.
    await page.getByTestId('subscriber-row').filter({ hasText: first }).getByText('Active').first().waitFor();
    // Subscribed on the file's OPTIN_TIME (1 February 2024), not on the day of the import (issue 49).
    await page.getByTestId('subscriber-row').filter({ hasText: first }).getByText('Feb 1, 2024').first().waitFor();
  }, 120_000);
});

describe('the report per issue', () => {
  it("counts a click on a recipient's tracked link once and shows it with the issue's figures", async () => {
    const { context, page } = admin;
    await confirmedSubscriber(context, 'Report Reader');
    const subject = `Report issue ${Date.now()}`;
    const sent = await api<{ newsletterId: number }>(context, 'POST', '/api/admin/send-newsletter', {
      subject,
      content: '<p>Read <a href="https://www.irs.gov/newsroom">the IRS news</a> or <a href="https://www.pa.gov/agencies/revenue">the PA news</a>.</p>',
    });
    let html: string | undefined;
    await waitUntil(async () => (html = newsletterHtml(subject)) !== undefined, 'a recipient e-mail of the issue', 30_000);
    const tracked = [...html!.matchAll(/href="(https?:\/\/[^"]+\/r\/[^"]+)"/g)].map((m) => new URL(m[1]).pathname);
    expect(tracked).toHaveLength(2);
    expect(html).not.toContain('href="https://www.irs.gov/newsroom"');
    // Followed twice by the same recipient: one redirect each time to the original, one click counted.
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${baseUrl()}${tracked[0]}`, { redirect: 'manual' });
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe('https://www.irs.gov/newsroom');
    }
    expect((await fetch(`${baseUrl()}/r/1.1.0.AAAAAAAAAAAAAAAAAAAAAA`, { redirect: 'manual' })).status).toBe(404);

    await page.goto('/admin/subscribers');
    await page.getByRole('button', { name: `Report: ${subject}` }).click();
    const dialog = page.getByRole('dialog', { name: `Report: ${subject}` });
    await dialog.getByTestId('report-recipients').waitFor({ timeout: 30_000 });
    const report = await api<{ recipients: number; clickers: number }>(context, 'GET', `/api/admin/sent-newsletters/${sent.newsletterId}/report`);
    expect(Number((await dialog.getByTestId('report-recipients').textContent())!.replaceAll(',', ''))).toBe(report.recipients);
    expect(await dialog.getByTestId('report-clicked-a-link').textContent()).toBe('1');
    const links = dialog.getByTestId('report-link');
    expect(await links.count()).toBe(2);
    expect(await links.nth(0).textContent()).toBe('https://www.irs.gov/newsroom1');
    expect(await links.nth(1).textContent()).toBe('https://www.pa.gov/agencies/revenue0');
    await dialog.getByText('Click tracking is on').waitFor();
    await saveScreensAtBothWidths(page, 'newsletter-report');
    await dialog.getByRole('button', { name: 'Done', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
  }, 120_000);
});
