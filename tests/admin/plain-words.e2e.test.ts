import { describe, expect, it } from 'vitest';
import { AUDIT_ACTION_LABELS } from '#core/audit-labels';
import { totpCode } from '../../worker/services/admin-auth/totp';
import { adminSessionPerFile, api, saveScreensAtBothWidths, uniqueEmail, waitUntil } from '../harness/e2e/admin-helpers';
import { DESKTOP, PHONE } from '../harness/e2e/browser';
import { invited, STAFF_PASSWORD } from '../harness/e2e/admin-users-helpers';

// Words and times for people (docs/product.md §6.7 and §6.9): the audit trail names actions and
// records in words, content history names fields as the screens do, and both give times on the
// firm's clock with its zone ("2:05 PM ET"), at 1280 px and on a phone. The scene is set through
// the API: an invitee who turns two-factor on while accepting (auth.two-factor-enable), and a
// published change of the phone number, restored at the end so the files sharing this server see
// the site's text as it was.

interface ContentState {
  published: { version: number; content: { firm: { contact: { phone: string; phoneHref: string } } } };
  draft: { basedOn: number; revision: number } | null;
}

const admin = adminSessionPerFile('/admin');
/** A time as the back office writes it: "Dec 7, 2026, 2:05 PM ET" (the space before PM is a narrow one). */
const FIRM_TIME = /[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s[AP]M ET/;
/** A code in the form the worker stores: `auth.two-factor-enable`, `content-draft:1`, `firm.contact.phone`. */
const CODE = /\b[a-z]+\.[a-z-]+\b|\b[a-z]+(?:-[a-z]+)*:\d+\b/;

describe('words and times for people', () => {
  it('the audit trail and the content history read in words with "ET" times, at 1280 and 390 px', async () => {
    const { page, context, errors } = admin;

    // Someone joins and turns two-factor on while accepting the invitation.
    const username = `words${Date.now().toString(36)}`;
    const token = new URL((await invited(context, uniqueEmail('words'), 'Wanda Words')), 'http://x').searchParams.get('token')!;
    const { secret } = await api<{ secret: string }>(context, 'POST', '/api/admin/invitations/two-factor', { token });
    await api(context, 'POST', '/api/admin/invitations/accept', { token, username, password: STAFF_PASSWORD, code: await totpCode(secret, Date.now()) });

    // The firm's phone number changes, published.
    const before = await api<ContentState>(context, 'GET', '/api/admin/content');
    const start = before.published.version;
    const content = structuredClone(before.published.content) as ContentState['published']['content'];
    content.firm.contact.phone = '(724) 555-0199';
    content.firm.contact.phoneHref = 'tel:+17245550199';
    await api(context, 'PUT', '/api/admin/content/draft', { basedOn: start, content });
    const drafted = await api<ContentState>(context, 'GET', '/api/admin/content');
    await api(context, 'POST', '/api/admin/content/publish', { basedOn: start, revision: drafted.draft!.revision });

    try {
      // The audit trail: the invitee's entry in words, the record named, the time in ET; no code on screen.
      await page.goto('/admin/audit');
      await page.getByRole('heading', { level: 1, name: 'Audit Trail' }).waitFor();
      const rows = page.getByTestId('audit-row');
      const enabled = rows.filter({ hasText: username }).filter({ hasText: 'Two-factor turned on' });
      await enabled.first().waitFor();
      expect(await enabled.first().textContent()).toMatch(FIRM_TIME);
      expect(await enabled.first().textContent()).toMatch(/User account \d+ \(Wanda Words\)/);
      const published = rows.filter({ hasText: AUDIT_ACTION_LABELS['content.publish'] }).filter({ hasText: `Content version ${start + 1}` });
      await published.first().waitFor();
      await rows.filter({ hasText: AUDIT_ACTION_LABELS['content.save-draft'] }).filter({ hasText: `Content draft (made from version ${start})` }).first().waitFor();
      // The code stays for an expert, on pointing at the words.
      expect(await enabled.first().locator('[title="auth.two-factor-enable"]').count()).toBe(1);
      const table = await page.getByRole('table', { name: 'Audit entries' }).textContent();
      expect(table).not.toMatch(CODE);
      // The filter offers the actions in words too, and still filters by the code.
      await page.getByLabel('Action').selectOption({ label: 'Two-factor turned on' });
      await page.getByRole('button', { name: 'Apply' }).click();
      await waitUntil(async () => (await rows.count()) > 0 && (await rows.filter({ hasNotText: 'Two-factor turned on' }).count()) === 0, 'only two-factor entries');
      expect(await page.getByRole('link', { name: 'Export CSV' }).getAttribute('href')).toBe('/api/admin/audit/export?action=auth.two-factor-enable');
      await page.reload();
      await rows.first().waitFor();
      await saveScreensAtBothWidths(page, 'words-audit');

      // On a phone, the list says the same.
      await page.setViewportSize(PHONE);
      const item = page.getByTestId('audit-item').filter({ hasText: username }).filter({ hasText: 'Two-factor turned on' });
      await item.first().waitFor();
      expect(await item.first().textContent()).toMatch(FIRM_TIME);
      expect(await page.getByRole('list', { name: 'Audit entries' }).textContent()).not.toMatch(CODE);

      // The content history: the phone number's change by the names of its fields, when in ET.
      for (const viewport of [PHONE, DESKTOP]) {
        await page.setViewportSize(viewport);
        await page.goto('/admin/content/history');
        await page.getByRole('heading', { level: 1, name: 'Content history' }).waitFor();
        const version = page.locator(`[data-testid="content-version"][data-version="${start + 1}"]`);
        await version.getByTestId('history-change').first().waitFor();
        expect(await version.textContent()).toMatch(new RegExp(`Published by [\\w.-]+ on ${FIRM_TIME.source}`));
        const lines = await version.getByTestId('history-change').allTextContents();
        expect(lines).toContain(`Firm details › Contact › Phone changed from “${before.published.content.firm.contact.phone}” to “(724) 555-0199”`);
        expect(lines).toContain(`Firm details › Contact › Phone link changed from “${before.published.content.firm.contact.phoneHref}” to “tel:+17245550199”`);
        expect(await version.textContent()).not.toMatch(/firm\.contact/);
      }
      await saveScreensAtBothWidths(page, 'words-content-history');
      expect(errors).toEqual([]);
    } finally {
      // The site's text as it was, for the other files.
      await api(context, 'POST', '/api/admin/content/restore', { version: start });
    }
  }, 120_000);
});
