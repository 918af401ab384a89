import type { OutgoingEmail } from './mail-types';

// What the e-mail log keeps of a message (docs/decisions/0020-no-bearer-secret-in-the-e-mail-log.md):
// everything but the bearer secrets its links carry. Whoever reads the log (the admin's e-mail log,
// GET /api/admin/emails, open to staff) must not be able to act as the recipient: accept an owner's
// invitation, confirm or end a subscription, cancel or move an appointment. The full message lives
// only in email_log.outbox_message while it waits for its transport, and that column is emptied in
// the same write that records the hand-over (worker/services/email/enqueue.ts).
//
// Every link the product mints carries its secret in one of two places, and both are redacted:
// - a `token` query parameter (an invitation, the newsletter confirmation and unsubscribe links
//   with the one-click List-Unsubscribe header, the appointment cancel and reschedule links, and
//   any link added later that follows the same convention);
// - the path segment after `/r/` (a newsletter's click-tracking links).
// A new kind of link must use one of them; tests/email/no-secret-in-email-log.worker.test.ts walks
// every kind the product sends and fails on any token-like string left in the log.

/** What stands in the log where a link's secret was. */
export const REDACTED_SECRET = '(link sent, not kept)';

// Shorter values are not secrets (the test send's inert `token=test-send`); every token the product
// mints is 43 characters (random) or a JWT.
const MIN_SECRET = 16;
const SECRET_CHARS = '[A-Za-z0-9._~%+=-]';
const TOKEN_PARAM = new RegExp(`([?&;]token=)(${SECRET_CHARS}{${MIN_SECRET},})`, 'g');
const CLICK_PATH = new RegExp(`(/r/)(${SECRET_CHARS}{${MIN_SECRET},})`, 'g');

/** The text with every link's secret replaced by REDACTED_SECRET. */
export function redactSecrets(text: string): string;
export function redactSecrets(text: string | null | undefined): string | null;
export function redactSecrets(text: string | null | undefined): string | null {
  if (text === null || text === undefined) return null;
  return text.replace(TOKEN_PARAM, `$1${REDACTED_SECRET}`).replace(CLICK_PATH, `$1${REDACTED_SECRET}`);
}

/** The message's header fields with their secrets redacted (List-Unsubscribe carries the unsubscribe token). */
export function redactedHeaders(headers: Record<string, string> | undefined): Record<string, string> | undefined {
  if (!headers) return undefined;
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, redactSecrets(value)]));
}

/** The message as the e-mail log keeps it: text, HTML and headers without any link's secret. */
export function loggedCopy(message: OutgoingEmail): Pick<OutgoingEmail, 'text' | 'html' | 'headers'> {
  return { text: redactSecrets(message.text), html: message.html === undefined ? undefined : redactSecrets(message.html), headers: redactedHeaders(message.headers) };
}
