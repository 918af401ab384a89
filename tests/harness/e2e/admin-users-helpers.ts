import { api, waitUntil } from './admin-helpers';
import { latestEmailBody } from './admin-newsletter-helpers';
import type { BrowserContext } from 'playwright-core';
import { seedLocalAdmin } from '../../../scripts/lib/local-state';
import { stack } from './browser';

/** A staff member's password in the browser tests (12+ characters, not a common one). */
export const STAFF_PASSWORD = 'a-staff-member-passphrase';

/** The accept-invitation path of the newest invitation e-mailed to `email`, read from the outbox. */
export async function invitationPath(email: string): Promise<string> {
  let path: string | undefined;
  await waitUntil(async () => {
    path = latestEmailBody(email, 'admin-invitation')?.match(/\/admin\/accept-invitation\?token=[A-Za-z0-9_-]+/)?.[0];
    return path !== undefined;
  }, `the invitation e-mail to ${email}`);
  return path!;
}

/** Invites through the API as the owner signed in on `owner`; returns the link's path. */
export async function invited(owner: BrowserContext, email: string, name = 'Axe Staff'): Promise<string> {
  await api(owner, 'POST', '/api/admin/users/invitations', { name, email, role: 'staff', canSendNewsletters: false });
  return invitationPath(email);
}

/**
 * A new owner as the first account is created (scripts/lib/local-state.ts seedLocalAdmin): its
 * username as its name and no e-mail, so its first sign-in asks "Tell us who you are". Its own
 * account, so the stack's admin (which the other files sign in as) stays as it is.
 */
export async function ownerWithoutEmail(label: string): Promise<{ username: string; password: string }> {
  const owner = { username: `${label}-${Date.now().toString(36)}`, password: STAFF_PASSWORD };
  await seedLocalAdmin(owner, stack().persistTo);
  return owner;
}
