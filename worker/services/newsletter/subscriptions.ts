import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { newsletterDeliveries, newsletterSubscriptions } from '../../db/schema';
import type { Bindings } from '../../env';
import type { AfterAnswer } from '../email/enqueue';
import { safeErrorSummary } from '../platform/log-safe';
import { confirmIfDue } from './confirmations';
import { takeSignupAllowance } from './signup-throttle';
import { claimsMatch, verifyLinkToken } from './tokens';

export type SignUpResult = { ok: true } | { ok: false; reason: 'too-many-attempts' };

/**
 * The sign-up form's use case: the network's hourly allowance (one D1 statement,
 * signup-throttle.ts), then subscribe. `network` is the hashed network of the request
 * (services/limits/client-ip.ts), `origin` the site's for the e-mail's links.
 */
export async function signUp(
  env: Bindings,
  db: Db,
  input: { email: string; name?: string },
  request: { network: string; origin: string; ctx: AfterAnswer },
): Promise<SignUpResult> {
  if (!(await takeSignupAllowance(env, request.network))) return { ok: false, reason: 'too-many-attempts' };
  await subscribe(env, db, input, request.origin, request.ctx);
  return { ok: true };
}

/**
 * Double opt-in sign-up. Whatever the state of the address (new, pending, active, unsubscribed,
 * suppressed) the caller gives the visitor the same answer; there is only ever one row per address.
 * New, pending and unsubscribed addresses get a confirmation e-mail (at most one per 10 minutes);
 * an active or suppressed one gets nothing.
 *
 * Before the answer every address gets the same D1 work (the insert-or-nothing and the read of the
 * row); everything that depends on what the row says (the daily cap's claim, the row's update, the
 * e-mail and its log) runs after the answer (`ctx.waitUntil`), so the time to answer does not tell
 * a subscriber's address from a new one (17 vs 23 ms median, when the row was read first). The cost: when the platform ends
 * the invocation right after the answer, a confirmation may be neither sent nor logged; the visitor
 * can sign up again.
 */
export async function subscribe(
  env: Bindings,
  db: Db,
  input: { email: string; name?: string },
  origin: string,
  ctx: AfterAnswer,
  now = new Date(),
): Promise<void> {
  const email = input.email.trim().toLowerCase();
  const name = input.name?.trim() || null;
  // Insert-or-nothing in one statement, so two simultaneous sign-ups cannot both create a row.
  await db
    .insert(newsletterSubscriptions)
    .values({ email, name, active: 'false', subscriptionDate: now })
    .onConflictDoNothing({ target: newsletterSubscriptions.email });
  const row = await db.query.newsletterSubscriptions.findFirst({ where: eq(newsletterSubscriptions.email, email) });
  if (!row) return;
  ctx.waitUntil(
    confirmIfDue(env, db, row, name, origin, now, 'sign-up').catch((error) => console.error('[newsletter] confirmation e-mail not sent:', safeErrorSummary(error))),
  );
}

export type LinkOutcome = 'confirmed' | 'unsubscribed' | 'invalid';

/** Activates the subscription a valid confirmation token names. */
export async function confirmSubscription(env: Bindings, db: Db, token: string, now = new Date()): Promise<LinkOutcome> {
  const claims = await verifyLinkToken(env.JWT_SECRET, 'newsletter-confirm', token, now);
  if (!claims) return 'invalid';
  const row = await db.query.newsletterSubscriptions.findFirst({ where: eq(newsletterSubscriptions.id, claims.subscriberId) });
  if (!row || !claimsMatch(claims, row)) return 'invalid';
  if (row.active === 'true') return 'confirmed';
  // A suppressed address stays suppressed, whatever link was mailed to it before.
  if (row.suppressedAt) return 'invalid';
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
  if (!row || !claimsMatch(claims, row)) return 'invalid';
  if (row.active === 'true' || !row.unsubscribedAt) {
    const unsubscribe = db.update(newsletterSubscriptions).set({ active: 'false', unsubscribedAt: now }).where(eq(newsletterSubscriptions.id, row.id));
    if (claims.newsletterId === undefined) await unsubscribe;
    else {
      // The issue whose link it was counts it in its report ("unsubscribed through it").
      const d = newsletterDeliveries;
      await db.batch([
        unsubscribe,
        db
          .update(d)
          .set({ unsubscribedAt: now })
          .where(and(eq(d.newsletterId, claims.newsletterId), eq(d.subscriberId, row.id), isNull(d.unsubscribedAt))),
      ]);
    }
  }
  return 'unsubscribed';
}

/** Whether an unsubscribe token is valid (the GET page shows the button only for a valid link). */
export async function checkUnsubscribeToken(env: Bindings, db: Db, token: string): Promise<{ valid: boolean; email?: string }> {
  const claims = await verifyLinkToken(env.JWT_SECRET, 'newsletter-unsubscribe', token);
  if (!claims) return { valid: false };
  const row = await db.query.newsletterSubscriptions.findFirst({ where: eq(newsletterSubscriptions.id, claims.subscriberId) });
  if (!row || !claimsMatch(claims, row)) return { valid: false };
  return { valid: true, email: maskEmail(row.email) };
}

/** j***@example.com: enough for the person to recognise their address, not enough to harvest it. */
export function maskEmail(email: string): string {
  const [local, domain] = email.split('@');
  return `${local.slice(0, 1)}***@${domain}`;
}
