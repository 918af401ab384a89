import { describe, expect, it } from 'vitest';
import { api, browserPerFile, expectToastSaying, saveScreens, signInThroughCard, waitUntil } from '../harness/e2e/admin-helpers';
import { newPage, PHONE } from '../harness/e2e/browser';
import { firmDay } from '../harness/calendar-days';

// The newsletter editor (docs/product.md §5.9): write in the rich-text editor, see the live preview
// in the firm's frame at desktop and phone widths, save, schedule, see it listed, cancel it.

const shared = browserPerFile();

type Draft = { id: number; subject: string; content: string; status: string; scheduledAt: string | null };

describe('newsletter editor', () => {
  it('editor -> live preview at both widths -> save -> schedule -> listed -> cancelled', async () => {
    const { page, context, errors } = await newPage(shared.browser);
    await signInThroughCard(page, '/admin');
    await page.getByRole('link', { name: 'Newsletters' }).click();
    await page.getByRole('heading', { name: 'Newsletter Drafts', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'New Newsletter' }).click();
    await page.getByRole('heading', { name: 'Newsletter Editor', level: 1 }).waitFor();

    const subject = `Editor issue ${Date.now()}`;
    await page.getByLabel('Subject').fill(subject);
    const body = page.getByRole('textbox', { name: 'Content' });
    // Each toolbar press is waited on (its aria-pressed state, and the editor holding the focus
    // again, which the toolbar gives back on the next frame) before typing, and each line of text
    // before the next step: on a loaded machine a keystroke may otherwise land before the mark, or
    // on the button (a space typed there was lost).
    const heading = page.getByRole('button', { name: 'Heading', exact: true });
    const bold = page.getByRole('button', { name: 'Bold', exact: true });
    const pressed = async (button: typeof bold, state: 'true' | 'false') => {
      await waitUntil(async () => (await button.getAttribute('aria-pressed')) === state, `${button === bold ? 'Bold' : 'Heading'} ${state === 'true' ? 'on' : 'off'}`);
      await waitUntil(() => body.evaluate((el) => el.contains(document.activeElement)), 'the editor focused again');
    };
    await body.click();
    await heading.click();
    await pressed(heading, 'true');
    await page.keyboard.type('Year-end checklist');
    await body.getByText('Year-end checklist').waitFor();
    await page.keyboard.press('Enter');
    await bold.click();
    await pressed(bold, 'true');
    await page.keyboard.type('Max out your 401(k)');
    await body.getByText('Max out your 401(k)').waitFor();
    await bold.click();
    await pressed(bold, 'false');
    await page.keyboard.type(' before December 31.');
    await body.getByText('before December 31.', { exact: false }).waitFor();

    // The live preview: the firm's frame around exactly what was written.
    const frame = page.getByTitle('Newsletter preview');
    const srcdoc = async () => (await frame.getAttribute('srcdoc')) ?? '';
    await waitUntil(async () => (await srcdoc()).includes('<strong>Max out your 401(k)</strong>'), 'the live preview', 45_000).catch(async (error: Error) => {
      throw new Error(`${error.message}; the editor holds ${JSON.stringify(await body.innerHTML())}; the preview's body: ${JSON.stringify((await srcdoc()).match(/<td style="padding: 24px[^>]*>([\s\S]*?)<\/td>/)?.[1] ?? (await srcdoc()).slice(0, 300))}`);
    });
    const html = await srcdoc();
    expect(html).toContain('<h2>Year-end checklist</h2>');
    expect(html).toContain('/newsletter/unsubscribe');
    const desktopWidth = (await frame.boundingBox())!.width;
    await page.getByRole('button', { name: 'Phone' }).click();
    await waitUntil(async () => (await frame.boundingBox())!.width <= 375, 'the phone-width preview');
    expect(desktopWidth).toBeGreaterThan(500);
    await page.getByRole('button', { name: 'Desktop' }).click();

    // Saved: the address names the draft, and what the server keeps is the editor's HTML.
    await page.getByRole('button', { name: 'Save Draft' }).click();
    await expectToastSaying(page, 'Draft saved');
    await page.waitForURL(/\/admin\/newsletters\/edit\?id=\d+$/);
    const id = Number(new URL(page.url()).searchParams.get('id'));
    const saved = await api<Draft>(context, 'GET', `/api/admin/newsletter/drafts/${id}`);
    expect(saved).toMatchObject({ subject, status: 'draft' });
    expect(saved.content).toBe('<h2>Year-end checklist</h2><p><strong>Max out your 401(k)</strong> before December 31.</p>');

    // A past time is refused under its field; a future one schedules it.
    await page.getByLabel('Date').fill('2020-01-06');
    await page.getByRole('button', { name: 'Schedule', exact: true }).click();
    await page.getByText('Please choose a time in the future').first().waitFor();
    // The firm's day after tomorrow: 10:15 AM on it is in the future whatever the hour now.
    await page.getByLabel('Date').fill(firmDay(2));
    await page.getByLabel(/^Time/).fill('10:15');
    await page.getByRole('button', { name: 'Schedule', exact: true }).click();
    await expectToastSaying(page, 'Newsletter scheduled');
    await page.getByTestId('scheduled-for').getByText(/10:15\sAM/).waitFor();
    await page.getByRole('button', { name: 'Reschedule' }).waitFor();
    expect(await api<Draft>(context, 'GET', `/api/admin/newsletter/drafts/${id}`)).toMatchObject({ status: 'scheduled' });
    await waitUntil(async () => ((await frame.getAttribute('srcdoc')) ?? '').includes('Year-end checklist'), 'the preview of the saved draft', 15_000);
    await saveScreens(page, 'newsletter-editor-1280');
    // On a phone, with the phone-width preview, nothing is wider than the screen.
    await page.setViewportSize(PHONE);
    await page.getByRole('button', { name: 'Phone' }).click();
    await waitUntil(() => page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth), 'no horizontal scroll at 390 px');
    await saveScreens(page, 'newsletter-editor-390');

    // The list shows what is scheduled; cancelling it there keeps it as a cancelled draft.
    await page.goto('/admin/newsletters');
    const card = page.getByTestId('newsletter-draft').filter({ hasText: subject });
    await card.getByText(/Sends .*10:15\sAM/).waitFor();
    await saveScreens(page, 'newsletter-drafts-390');
    await card.getByRole('button', { name: `Cancel the schedule of ${subject}` }).click();
    await expectToastSaying(page, 'Schedule cancelled');
    await card.getByText('Cancelled', { exact: true }).waitFor();
    expect(await api<Draft>(context, 'GET', `/api/admin/newsletter/drafts/${id}`)).toMatchObject({ status: 'cancelled' });
    // The one 400 is the past time refused above.
    expect(errors.filter((e) => !e.includes('status of 400'))).toEqual([]);
    await context.close();
  }, 120_000);

  it('opens the panel preview (the AI draft, or the template without AI) in the editor', async () => {
    const { page, context } = await newPage(shared.browser);
    await signInThroughCard(page, '/admin');
    await page.getByRole('button', { name: 'AI Preview' }).click();
    const subject = await page.getByTestId('preview-subject').textContent({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Open in Editor' }).click();
    await page.waitForURL(/\/admin\/newsletters\/edit\?id=\d+$/);
    await expect.poll(() => page.getByLabel('Subject').inputValue(), { timeout: 10_000 }).toBe(subject);
    await waitUntil(async () => ((await page.getByRole('textbox', { name: 'Content' }).textContent()) ?? '').length > 20, 'the draft in the editor');
    await context.close();
  }, 120_000);
});
