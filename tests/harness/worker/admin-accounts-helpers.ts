import { env } from 'cloudflare:test';
import { hashPassword } from '../../../worker/services/admin-auth/passwords';
import { signIn } from './helpers';
import { deliveredMail } from './mailbox-fake';

/** A second account's password (12+ characters, not a common one). */
export const ACCOUNT_PASSWORD = 'staff-member-password-42';

/**
 * Creates an account straight in D1 (after the seeded owner) (the invitation flow has its own tests) and signs it in;
 * returns its id and Cookie header value.
 */
export async function accountSignedIn(username: string, role: 'owner' | 'staff', options: { canSendNewsletters?: boolean; email?: string } = {}) {
  // The seeded owner first: it is created from the secrets only while no account exists at all.
  await signIn();
  const hash = await hashPassword(ACCOUNT_PASSWORD);
  const row = await env.DB.prepare('INSERT INTO admin_users (username, password_hash, name, email, role, can_send_newsletters) VALUES (?1, ?2, ?3, ?4, ?5, ?6) RETURNING id')
    .bind(username, hash, `${username} name`, options.email ?? `${username}@example.com`, role, options.canSendNewsletters ? 1 : 0)
    .first<{ id: number }>();
  const cookie = await signIn({ username, password: ACCOUNT_PASSWORD });
  return { id: row!.id, cookie };
}

/**
 * The token of the newest link of `kind` e-mailed to `email` (an invitation, a password reset),
 * read from the outbox (the e-mail log), the way the person would click it.
 */
export async function emailedLinkToken(email: string, kind: 'admin-invitation' | 'admin-password-reset'): Promise<string> {
  // The e-mail log keeps no token (worker/mail-redaction.ts): the link is read from the mailbox, where
  // requests made with MAILBOX_ENV deliver (tests/harness/worker/mailbox-fake.ts).
  const mail = deliveredMail().filter((m) => m.kind === kind && m.to.includes(email.toLowerCase())).at(-1);
  const token = mail?.text.match(/\/admin\/(?:accept-invitation|reset-password)\?token=([A-Za-z0-9_-]+)/)?.[1];
  if (!token) throw new Error(`no ${kind} e-mail to ${email} in the mailbox`);
  return token;
}
