import { describe, expect, inject, it } from 'vitest';
import { browserPerFile, expectToastSaying, saveScreensAtBothWidths, signInThroughCard } from '../harness/e2e/admin-helpers';
import { ownerWithoutEmail } from '../harness/e2e/admin-users-helpers';
import { DESKTOP, newPage } from '../harness/e2e/browser';
import { E2E_ADMIN_EMAIL } from '../harness/e2e/global-setup';

// "Tell us who you are" (docs/product.md §6.8, issue 49): the first owner (no e-mail, its username
// as name) is asked for a name and an e-mail before any admin screen, once.

const shared = browserPerFile();

describe('the first sign-in asks the owner who they are', () => {
  it('shows one card before the panel on every screen, checks the fields, saves, and then opens the screen asked for', async () => {
    const owner = await ownerWithoutEmail('first-owner');
    const { context, page, errors } = await newPage(shared.browser, DESKTOP);
    try {
      await signInThroughCard(page, '/admin', owner);
      const step = page.getByRole('heading', { name: 'Tell us who you are', level: 1 });
      await step.waitFor();
      expect(await page.getByRole('heading', { name: 'Admin Panel' }).count()).toBe(0);
      // Not a screen of its own: whatever admin address is opened, the card comes first.
      await page.goto('/admin/users');
      await step.waitFor();
      expect(await page.getByRole('heading', { name: 'Users', level: 1 }).count()).toBe(0);
      // The username is no name: nothing is offered in its place.
      const name = page.locator('#account-profile-name');
      const email = page.locator('#account-profile-email');
      expect(await name.inputValue()).toBe('');
      await saveScreensAtBothWidths(page, 'people-first-sign-in');

      // The shared field rules, under their fields.
      await page.getByRole('button', { name: 'Save and continue' }).click();
      await page.getByText('Name is required').waitFor();
      await page.getByText('Email is required').waitFor();
      expect(await name.getAttribute('aria-invalid')).toBe('true');
      await name.fill('Olivia Owner');
      await email.fill('not an address');
      await page.getByText('Please enter a valid email address').waitFor();
      await page.getByRole('button', { name: 'Save and continue' }).click();
      expect(await email.getAttribute('aria-invalid')).toBe('true');

      // Another account's address is refused with a reason tied to the field.
      await email.fill(E2E_ADMIN_EMAIL);
      await page.getByRole('button', { name: 'Save and continue' }).click();
      await page.getByText('Another account already uses this e-mail address').first().waitFor();
      expect(await email.getAttribute('aria-describedby')).toContain('account-profile-error');

      await email.fill(`${owner.username}@example.com`);
      await page.getByRole('button', { name: 'Save and continue' }).click();
      await expectToastSaying(page, 'Saved', 'Welcome, Olivia Owner.');
      await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
      await page.getByText(`${owner.username}@example.com`).first().waitFor();

      // Asked once: the next visit opens the panel itself.
      await page.goto('/admin');
      await page.getByRole('heading', { name: 'Admin Panel', level: 1 }).waitFor();
      expect(await step.count()).toBe(0);
      // The one console error is the refused address's 409, which the card showed.
      expect(errors.filter((e) => !/status of 409/.test(e))).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);

  it('leaves the stack’s own admin, which has an e-mail, straight on the panel', async () => {
    const { context, page } = await newPage(shared.browser, DESKTOP);
    try {
      await signInThroughCard(page, '/admin', inject('admin'));
      await page.getByRole('heading', { name: 'Admin Panel', level: 1 }).waitFor();
      expect(await page.getByRole('heading', { name: 'Tell us who you are' }).count()).toBe(0);
    } finally {
      await context.close();
    }
  }, 60_000);
});
