import { describe, expect, it } from 'vitest';
import { api, browserPerFile, expectToastSaying, saveScreensAtBothWidths, signInThroughCard, uniqueEmail, waitUntil } from '../harness/e2e/admin-helpers';
import { latestEmailBody } from '../harness/e2e/admin-newsletter-helpers';
import { invitationPath, invited, STAFF_PASSWORD } from '../harness/e2e/admin-users-helpers';
import { newPage, SCREEN_SIZES } from '../harness/e2e/browser';
import { axeProblems, reflowProblems } from '../harness/e2e/a11y-sweep';
import { totpCode } from '../../worker/services/admin-auth/totp';
import { AUDIT_ACTION_LABELS } from '#core/audit-labels';

// Staff accounts as the firm uses them (docs/product.md §6.8): the owner invites from /admin/users,
// the invitee opens the e-mail's link, chooses a username and password and signs in as staff, who
// is not offered the owner's screens, and replies to a visitor from the inbox; the owner finds the
// invitation, the account, its sign-in and its reply in the audit trail, sees the account's session
// and deactivates it, which signs the staff member out at once.

const shared = browserPerFile();

describe('staff accounts', () => {
  it('invite -> accept -> sign in as staff -> the owner ends the account', async () => {
    const owner = await newPage(shared.browser);
    const staff = await newPage(shared.browser);
    try {
      await signInThroughCard(owner.page);
      await owner.page.getByRole('link', { name: 'Users', exact: true }).click();
      await owner.page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();

      const email = uniqueEmail('new-staff');
      const username = `staff-${Date.now().toString(36)}`;
      // The invite form (the footer's newsletter form has a Name and an Email too).
      const inviteForm = owner.page.locator('form').filter({ has: owner.page.getByRole('button', { name: 'Send invitation' }) });
      await inviteForm.getByLabel('Name').fill('Casey Staff');
      await inviteForm.getByLabel('Email').fill(email);
      await inviteForm.getByRole('button', { name: 'Send invitation' }).click();
      await expectToastSaying(owner.page, 'Invitation sent', `Invitation sent to ${email}`);

      // The invitee follows the e-mail's link in their own browser.
      await staff.page.goto(await invitationPath(email));
      await staff.page.getByText('Welcome, Casey Staff.').waitFor();
      await staff.page.getByLabel('Username').fill(username);
      await staff.page.getByLabel('Password').fill('too-short');
      await staff.page.getByRole('button', { name: 'Create account' }).click();
      await staff.page.getByText('Password must be at least 12 characters').waitFor();
      await staff.page.getByLabel('Password').fill(STAFF_PASSWORD);
      await staff.page.getByRole('button', { name: 'Create account' }).click();
      await expectToastSaying(staff.page, 'Account created');
      await staff.page.getByLabel('Username').fill(username);
      await staff.page.getByLabel('Password').fill(STAFF_PASSWORD);
      await staff.page.getByRole('button', { name: 'Login' }).click();
      await staff.page.getByRole('heading', { name: 'Admin Panel', level: 1 }).waitFor({ timeout: 20_000 });
      // Staff work the inbox; the owner's screens are not offered, and the API refuses them anyway.
      expect(await staff.page.getByRole('link', { name: 'Users', exact: true }).count()).toBe(0);
      await staff.page.goto('/admin/users');
      await staff.page.getByText('Only an owner can manage users and security settings.').waitFor();
      // Staff answer a visitor from the inbox (docs/product.md §6.2): the reply is theirs, by name.
      const visitor = uniqueEmail('staff-reply');
      await api(owner.context, 'POST', '/api/contact', { name: 'Vera Visitor', email: visitor, message: 'Do you prepare Pennsylvania local returns?' });
      await staff.page.goto('/admin');
      const card = staff.page.getByTestId('message-card').filter({ hasText: visitor });
      await card.waitFor({ timeout: 30_000 });
      await card.getByRole('button', { name: 'Reply', exact: true }).click();
      const composer = card.getByRole('form', { name: 'Reply to Vera Visitor' });
      await composer.getByLabel('Your reply to Vera Visitor').fill('Yes, we do. Send us last year’s return.');
      await composer.getByRole('button', { name: 'Send reply' }).click();
      await expectToastSaying(staff.page, 'Reply sent', `Reply sent to ${visitor}`);
      const reply = card.getByTestId('reply-item');
      await reply.waitFor();
      expect(await reply.textContent()).toContain('Casey Staff replied on');
      await saveScreensAtBothWidths(staff.page, 'reply-thread');

      // The owner sees who did what in the audit trail (§6.9): the invitation, the new account, its
      // sign-in and its reply, each by its actor.
      await owner.page.goto('/admin/audit');
      await owner.page.getByRole('heading', { level: 1, name: 'Audit Trail' }).waitFor();
      const entries = owner.page.getByTestId('audit-row');
      // In words (core/audit-labels.ts), not codes.
      await entries.filter({ hasText: AUDIT_ACTION_LABELS['contact.reply'] }).filter({ hasText: username }).first().waitFor({ timeout: 30_000 });
      for (const action of ['user.create', 'auth.sign-in'] as const) expect(await entries.filter({ hasText: AUDIT_ACTION_LABELS[action] }).filter({ hasText: username }).count()).toBeGreaterThan(0);
      expect(await entries.filter({ hasText: AUDIT_ACTION_LABELS['user.invite'] }).count()).toBeGreaterThan(0);
      await saveScreensAtBothWidths(owner.page, 'audit-trail');
      await owner.page.goto('/admin/users');

      // The owner sees the account and where it is signed in, then deactivates it.
      await owner.page.reload();
      const row = owner.page.locator(`[data-testid="user-row"][data-username="${username}"]`);
      await row.waitFor();
      await row.getByRole('button', { name: 'Sessions of Casey Staff' }).click();
      const session = row.getByTestId('session-row').first();
      await session.waitFor();
      expect(await session.textContent()).toMatch(/^Signed in from Chrome on Linux( \([A-Z]{2}\))? since /);
      await saveScreensAtBothWidths(owner.page, 'users');
      await row.getByRole('button', { name: 'Deactivate Casey Staff' }).click();
      await expectToastSaying(owner.page, 'User deactivated');
      await row.getByText(/^Deactivated/).waitFor();

      // Signed out at once: the staff member's next screen is the login card.
      await staff.page.goto('/admin');
      await staff.page.getByRole('button', { name: 'Login' }).waitFor();
    } finally {
      await owner.context.close();
      await staff.context.close();
    }
  }, 120_000);

  it('pending invitations: listed with Resend and Revoke; the invitee enrols two-factor sign-in on the acceptance page', async () => {
    const owner = await newPage(shared.browser);
    const invitee = await newPage(shared.browser);
    try {
      await signInThroughCard(owner.page);
      await owner.page.goto('/admin/users');
      await owner.page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
      const kept = uniqueEmail('pending-kept');
      const dropped = uniqueEmail('pending-dropped');
      const inviteForm = owner.page.locator('form').filter({ has: owner.page.getByRole('button', { name: 'Send invitation' }) });
      for (const [name, email] of [['Robin Pending', kept], ['Drew Dropped', dropped]]) {
        await inviteForm.getByLabel('Name').fill(name);
        await inviteForm.getByLabel('Email').fill(email);
        await inviteForm.getByRole('button', { name: 'Send invitation' }).click();
        await expectToastSaying(owner.page, 'Invitation sent', `Invitation sent to ${email}`);
      }
      // Each pending invitation: to whom, which role, by whom, until when.
      const row = (email: string) => owner.page.locator(`[data-testid="invitation-row"][data-email="${email}"]`);
      await row(kept).waitFor();
      await row(dropped).waitFor();
      expect(await row(kept).textContent()).toMatch(/Robin Pending · pending-kept-.*Staff · invited by .+Link works until \w{3} \d{1,2}, \d{4}/);
      // The screen as the owner sees it once the toasts have gone and the cookie banner was answered.
      const banner = owner.page.getByRole('button', { name: 'Accept', exact: true });
      if (await banner.count()) await banner.click();
      for (const close of await owner.page.locator('[data-variant][data-state="open"]').getByRole('button').all()) await close.click();
      await waitUntil(async () => (await owner.page.locator('[data-variant][data-state="open"]').count()) === 0, 'the toasts to close');
      await saveScreensAtBothWidths(owner.page, 'admin-users-pending');

      // Resend: a new link; the old one no longer works.
      const oldPath = await invitationPath(kept);
      await row(kept).getByRole('button', { name: `Resend the invitation to ${kept}` }).click();
      await expectToastSaying(owner.page, 'Invitation resent');
      let newPath = oldPath;
      await waitUntil(async () => {
        newPath = latestEmailBody(kept, 'admin-invitation')?.match(/\/admin\/accept-invitation\?token=[A-Za-z0-9_-]+/)?.[0] ?? oldPath;
        return newPath !== oldPath;
      }, 'the resent invitation');
      // Revoke: the row goes, and its link says it was withdrawn.
      const droppedPath = await invitationPath(dropped);
      await row(dropped).getByRole('button', { name: `Revoke the invitation to ${dropped}` }).click();
      await expectToastSaying(owner.page, 'Invitation revoked');
      await waitUntil(async () => (await row(dropped).count()) === 0, 'the revoked invitation to leave the list');
      await invitee.page.goto(droppedPath);
      await invitee.page.getByText('This invitation has been withdrawn. Ask the firm’s owner for a new invitation.').waitFor();
      await invitee.page.goto(oldPath);
      await invitee.page.getByText('This invitation link is not valid. Ask the firm’s owner for a new invitation.').waitFor();

      // The invitee opens the new link and enrols an authenticator before the account exists.
      await invitee.page.goto(newPath);
      await invitee.page.getByText('Welcome, Robin Pending.').waitFor();
      const username = `robin-${Date.now().toString(36)}`;
      await invitee.page.getByLabel('Username').fill(username);
      await invitee.page.getByLabel('Password').fill(STAFF_PASSWORD);
      await invitee.page.getByRole('button', { name: 'Set up my authenticator app' }).click();
      await invitee.page.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
      const secret = (await invitee.page.getByTestId('two-factor-secret').textContent())!.replace(/\s/g, '');
      await invitee.page.getByLabel('Code from the app').fill(await totpCode(secret, Date.now()));
      await invitee.page.getByRole('button', { name: 'Create account' }).click();
      await expectToastSaying(invitee.page, 'Account created');
      const codes = invitee.page.getByRole('region', { name: 'Recovery codes' });
      await codes.waitFor();
      expect(await codes.getByRole('listitem').count()).toBe(10);
      await invitee.page.getByRole('button', { name: 'I have saved them' }).click();
      // Sign-in now asks for a code from that authenticator.
      await invitee.page.getByLabel('Username').fill(username);
      await invitee.page.getByLabel('Password').fill(STAFF_PASSWORD);
      await invitee.page.getByRole('button', { name: 'Login' }).click();
      await invitee.page.getByLabel('Authentication code').waitFor();
      await invitee.page.getByLabel('Authentication code').fill(await totpCode(secret, Date.now() + 30_000));
      await invitee.page.getByRole('button', { name: 'Login' }).click();
      await invitee.page.getByRole('heading', { name: 'Admin Panel', level: 1 }).waitFor({ timeout: 20_000 });

      // Accepted: no longer pending; the account is listed with two-factor on.
      await owner.page.reload();
      await owner.page.locator(`[data-testid="user-row"][data-username="${username}"]`).getByText('Two-factor on').waitFor();
      expect(await row(kept).count()).toBe(0);
    } finally {
      await owner.context.close();
      await invitee.context.close();
    }
  }, 120_000);

  it('tells the invitee when a link is not valid', async () => {
    const { context, page } = await newPage(shared.browser);
    try {
      await page.goto('/admin/accept-invitation?token=not-a-real-token');
      await page.getByText('This invitation link is not valid. Ask the firm’s owner for a new invitation.').waitFor();
      await waitUntil(async () => (await page.getByRole('button', { name: 'Create account' }).count()) === 0, 'no form');
    } finally {
      await context.close();
    }
  }, 60_000);
  it('the owner sends a password-reset link; its page sets a new password once, passes axe and reflows, and the new password signs in', async () => {
    const owner = await newPage(shared.browser);
    const holder = await newPage(shared.browser);
    try {
      await signInThroughCard(owner.page);
      // An account to reset: invited and accepted through the API.
      const email = uniqueEmail('reset-staff');
      const username = `reset-${Date.now().toString(36)}`;
      const token = new URLSearchParams((await invited(owner.context, email, 'Rita Reset')).split('?')[1]).get('token');
      await api(owner.context, 'POST', '/api/admin/invitations/accept', { token, username, password: STAFF_PASSWORD });

      await owner.page.goto('/admin/users');
      const account = owner.page.locator(`[data-testid="user-row"][data-username="${username}"]`);
      await account.getByRole('button', { name: /^Send .* a password-reset link$/ }).click();
      await expectToastSaying(owner.page, 'Password-reset link sent');

      let resetPath: string | undefined;
      await waitUntil(async () => (resetPath = latestEmailBody(email, 'admin-password-reset')?.match(/\/admin\/reset-password\?token=[A-Za-z0-9_-]+/)?.[0]) !== undefined, 'the password-reset e-mail');
      await holder.page.goto(resetPath!);
      await holder.page.getByText(`For Rita Reset (username ${username}). The link works once.`).waitFor();
      for (const [label, viewport] of SCREEN_SIZES) {
        await holder.page.setViewportSize(viewport);
        expect(await axeProblems(holder.page), `axe at ${label}`).toEqual([]);
      }
      await holder.page.setViewportSize({ width: 320, height: 800 });
      expect(await reflowProblems(holder.page)).toEqual([]);
      await saveScreensAtBothWidths(holder.page, 'admin-reset-password');

      await holder.page.getByLabel('New password').fill('a-brand-new-passphrase-9');
      await holder.page.getByRole('button', { name: 'Set new password' }).click();
      await holder.page.getByRole('status').filter({ hasText: 'Your new password is set' }).waitFor();
      await holder.page.getByLabel('Username').fill(username);
      await holder.page.getByLabel('Password').fill('a-brand-new-passphrase-9');
      await holder.page.getByRole('button', { name: 'Login' }).click();
      await holder.page.getByRole('heading', { name: 'Admin Panel', level: 1 }).waitFor({ timeout: 20_000 });

      // The link worked once.
      const used = await newPage(shared.browser);
      await used.page.goto(resetPath!);
      await used.page.getByRole('alert').waitFor();
      expect(await used.page.getByRole('button', { name: 'Set new password' }).count()).toBe(0);
      await used.context.close();
    } finally {
      await owner.context.close();
      await holder.context.close();
    }
  }, 120_000);
});
