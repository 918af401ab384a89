import { desc, eq } from 'drizzle-orm';
import { firm, firmAddressLine } from '../../../web/content/firm';
import type { Db } from '../../db/client';
import { newsletterSubscriptions } from '../../db/schema';
import type { Bindings } from '../../env';
import { sendEmail } from '../email/send-email';
import { escapeHtml } from './template';
import { signLinkToken, verifyLinkToken } from './tokens';

type SubscriptionRow = typeof newsletterSubscriptions.$inferSelect;

/** A second confirmation e-mail to the same address waits this long (no mail-bombing through the form). */
export const CONFIRMATION_RESEND_MS = 10 * 60 * 1000;

export type SubscriberStatus = 'active' | 'pending' | 'unsubscribed';

export function subscriberStatus(row: Pick<SubscriptionRow, 'active' | 'unsubscribedAt'>): SubscriberStatus {
  if (row.active === 'true') return 'active';
  return row.unsubscribedAt ? 'unsubscribed' : 'pending';
}

/** The admin's view of a subscriber (docs/product.md §11). */
export function toSubscriber(row: SubscriptionRow) {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    subscriptionDate: row.subscriptionDate.toISOString(),
    active: row.active,
    status: subscriberStatus(row),
  };
}

export async function listSubscribers(db: Db) {
  const rows = await db.select().from(newsletterSubscriptions).orderBy(desc(newsletterSubscriptions.subscriptionDate), desc(newsletterSubscriptions.id));
  return rows.map(toSubscriber);
}

export function confirmUrl(origin: string, token: string): string {
  return `${origin}/api/newsletter/confirm?token=${encodeURIComponent(token)}`;
}

/** The page (GET shows a button, changes nothing) a person lands on from the link in a newsletter. */
export function unsubscribePageUrl(origin: string, token: string): string {
  return `${origin}/newsletter/unsubscribe?token=${encodeURIComponent(token)}`;
}

/** RFC 8058 one-click target: mail clients POST "List-Unsubscribe=One-Click" here. */
export function oneClickUnsubscribeUrl(origin: string, token: string): string {
  return `${origin}/api/newsletter/unsubscribe?token=${encodeURIComponent(token)}`;
}

async function sendConfirmation(env: Bindings, row: SubscriptionRow, origin: string, now: Date) {
  const token = await signLinkToken(env.JWT_SECRET, 'newsletter-confirm', row, now);
  const link = confirmUrl(origin, token);
  const greeting = row.name ? `Hello ${row.name},` : 'Hello,';
  const text = [
    greeting,
    '',
    `Please confirm that you want to receive the ${firm.name} newsletter by opening this link:`,
    link,
    '',
    'The link is valid for 7 days. If you did not sign up, ignore this e-mail and you will not hear from us again.',
    '',
    firm.legalName,
    firmAddressLine,
  ].join('\n');
  const html = `<p>${escapeHtml(greeting)}</p>
<p>Please confirm that you want to receive the ${escapeHtml(firm.name)} newsletter.</p>
<p><a href="${escapeHtml(link)}" style="background-color: #1e3a8a; color: #ffffff; padding: 10px 20px; border-radius: 6px; text-decoration: none; display: inline-block;">Confirm my subscription</a></p>
<p>The link is valid for 7 days. If you did not sign up, ignore this e-mail and you will not hear from us again.</p>
<p style="color: #475569; font-size: 12px;">${escapeHtml(firm.legalName)}<br>${escapeHtml(firmAddressLine)}</p>`;
  return sendEmail(env, {
    to: row.email,
    toName: row.name ?? undefined,
    subject: `Please confirm your subscription to the ${firm.name} newsletter`,
    text,
    html,
    kind: 'newsletter-confirmation',
  });
}

/**
 * Double opt-in sign-up. Whatever the state of the address (new, pending, active, unsubscribed)
 * the caller gives the visitor the same answer; there is only ever one row per address.
 * New, pending and unsubscribed addresses get a confirmation e-mail (at most one per 10 minutes);
 * an active subscriber gets nothing.
 */
export async function subscribe(env: Bindings, db: Db, input: { email: string; name?: string }, origin: string, now = new Date()): Promise<void> {
  const email = input.email.trim().toLowerCase();
  const name = input.name?.trim() || null;
  // Insert-or-nothing in one statement, so two simultaneous sign-ups cannot both create a row.
  await db
    .insert(newsletterSubscriptions)
    .values({ email, name, active: 'false', subscriptionDate: now })
    .onConflictDoNothing({ target: newsletterSubscriptions.email });
  const row = await db.query.newsletterSubscriptions.findFirst({ where: eq(newsletterSubscriptions.email, email) });
  if (!row || row.active === 'true') return;
  if (row.confirmationSentAt && now.getTime() - row.confirmationSentAt.getTime() < CONFIRMATION_RESEND_MS) return;
  const updated = { ...row, name: name ?? row.name, confirmationSentAt: now };
  await db.update(newsletterSubscriptions).set({ name: updated.name, confirmationSentAt: now }).where(eq(newsletterSubscriptions.id, row.id));
  await sendConfirmation(env, updated, origin, now);
}

export type LinkOutcome = 'confirmed' | 'unsubscribed' | 'invalid';

/** Activates the subscription a valid confirmation token names. */
export async function confirmSubscription(env: Bindings, db: Db, token: string, now = new Date()): Promise<LinkOutcome> {
  const claims = await verifyLinkToken(env.JWT_SECRET, 'newsletter-confirm', token, now);
  if (!claims) return 'invalid';
  const row = await db.query.newsletterSubscriptions.findFirst({ where: eq(newsletterSubscriptions.id, claims.subscriberId) });
  if (!row || row.email !== claims.email) return 'invalid';
  if (row.active === 'true') return 'confirmed';
  // A confirmation link mailed before the person unsubscribed must not sign them up again.
  if (row.unsubscribedAt && claims.issuedAtMs < row.unsubscribedAt.getTime()) return 'invalid';
  await db
    .update(newsletterSubscriptions)
    .set({ active: 'true', confirmedAt: now, subscriptionDate: now, unsubscribedAt: null })
    .where(eq(newsletterSubscriptions.id, row.id));
  return 'confirmed';
}

/** Ends the subscription a valid unsubscribe token names. Idempotent. */
export async function unsubscribe(env: Bindings, db: Db, token: string, now = new Date()): Promise<LinkOutcome> {
  const claims = await verifyLinkToken(env.JWT_SECRET, 'newsletter-unsubscribe', token, now);
  if (!claims) return 'invalid';
  const row = await db.query.newsletterSubscriptions.findFirst({ where: eq(newsletterSubscriptions.id, claims.subscriberId) });
  if (!row || row.email !== claims.email) return 'invalid';
  if (row.active === 'true' || !row.unsubscribedAt) {
    await db.update(newsletterSubscriptions).set({ active: 'false', unsubscribedAt: now }).where(eq(newsletterSubscriptions.id, row.id));
  }
  return 'unsubscribed';
}

/** Whether an unsubscribe token is valid (the GET page shows the button only for a valid link). */
export async function checkUnsubscribeToken(env: Bindings, db: Db, token: string): Promise<{ valid: boolean; email?: string }> {
  const claims = await verifyLinkToken(env.JWT_SECRET, 'newsletter-unsubscribe', token);
  if (!claims) return { valid: false };
  const row = await db.query.newsletterSubscriptions.findFirst({ where: eq(newsletterSubscriptions.id, claims.subscriberId) });
  if (!row || row.email !== claims.email) return { valid: false };
  return { valid: true, email: maskEmail(row.email) };
}

/** j***@example.com: enough for the person to recognise their address, not enough to harvest it. */
export function maskEmail(email: string): string {
  const [local, domain] = email.split('@');
  return `${local.slice(0, 1)}***@${domain}`;
}
