import { describe, expect, it } from 'vitest';
import { DESKTOP, newPage } from '../harness/e2e/browser';
import { browserPerFile, signInThroughCard } from '../harness/e2e/admin-helpers';

// The AI Preview as the administrator sees it when Workers AI gives no draft (docs/product.md §5.6):
// the local stack has no AI binding, so the preview is the static template, and the panel says so
// instead of showing it as an AI draft. Quick Preview is the template by choice: no notice there.

const NOTICE = 'AI draft unavailable: static template shown';

const shared = browserPerFile();

describe('the Newsletter Preview', () => {
  it('says "AI draft unavailable: static template shown" when the AI preview fell back, and not for Quick Preview', async () => {
    const { context, page, errors } = await newPage(shared.browser, DESKTOP);
    await signInThroughCard(page);

    await page.getByRole('button', { name: 'AI Preview' }).click();
    await page.getByRole('heading', { name: 'Newsletter Preview' }).waitFor({ timeout: 30_000 });
    const notice = page.getByRole('status').filter({ hasText: NOTICE });
    await notice.waitFor({ timeout: 30_000 });
    expect(await notice.isVisible()).toBe(true);
    expect((await page.getByTestId('preview-subject').textContent())?.length).toBeGreaterThan(0);

    await page.getByRole('button', { name: 'Quick Preview' }).click();
    await notice.waitFor({ state: 'detached', timeout: 30_000 });
    expect(await page.getByText(NOTICE).count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});
