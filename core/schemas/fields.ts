import * as z from 'zod/v4';

// The field rules more than one form shares, each with its messages (docs/product.md §9), written
// once: the schemas in this folder are built from them, so the contact form, the booking form, the
// newsletter sign-up and the admin's test e-mail cannot drift apart (tests/platform/schema-fields.worker.test.ts).
// Builders rather than ready-made schemas: importing this module builds nothing, and a rule no
// schema uses is dropped from the bundle. Pure zod (no bindings): the forms' lazy validators
// (web/features/*/validate-*.ts) load it in the browser too.

/** Longest accepted values of the shared fields. */
export const FIELD_LIMITS = { name: 100, email: 254, phone: 40 } as const;

/** The one wording of a length limit: "Name must be at most 100 characters". */
export const tooLongMessage = (label: string, max: number) => `${label} must be at most ${max} characters`;

export const FIELD_MESSAGES = {
  nameRequired: 'Name is required',
  nameTooLong: tooLongMessage('Name', FIELD_LIMITS.name),
  nameOneLine: 'Name must be a single line, without tabs or control characters',
  email: 'Please enter a valid email address',
} as const;

/** Required text: trimmed; missing or blank gets `required`, more than `max` characters `tooLong`. */
export const requiredText = (required: string, max: number, tooLong: string) => z.string({ error: required }).trim().min(1, required).max(max, tooLong);

/**
 * What never belongs in a one-line field that may become an e-mail header (a recipient's display
 * name, a subject) or an .ics line: the C0 controls (line breaks and tabs among them), DEL, the C1
 * controls (NEL among them) and the Unicode line and paragraph separators. MailChannels refuses a
 * header with a line break, so a name stored with one made every e-mail to that person fail.
 */
export const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** The one wording of that refusal: "Name must be a single line, without tabs or control characters". */
export const singleLineMessage = (label: string) => `${label} must be a single line, without tabs or control characters`;

/** Whether a text has no control character (CONTROL_CHARACTERS): a zod refine. */
export const isSingleLine = (value: string) => !CONTROL_CHARACTERS.test(value);

/**
 * A text folded onto one line: each run of control characters becomes one space, the ends trimmed.
 * For what was stored before the rule (e-mail headers built from it, worker/services/email/mailchannels.ts).
 */
export const foldLine = (value: string) => value.replace(new RegExp(`${CONTROL_CHARACTERS.source}+`, 'g'), ' ').trim();

/** A required name: trimmed, not blank, at most 100 characters, one line (contact and booking forms, chat hand-off, invitations). */
export const nameField = () => requiredText(FIELD_MESSAGES.nameRequired, FIELD_LIMITS.name, FIELD_MESSAGES.nameTooLong).refine(isSingleLine, FIELD_MESSAGES.nameOneLine);

/**
 * The Cloudflare Turnstile token a public form sends when Turnstile is on (worker/middleware/turnstile.ts
 * checks it, before the handler; 2048 is Cloudflare's maximum). Optional: without TURNSTILE_SECRET no
 * token is sent or needed. No handler stores it.
 */
export const turnstileTokenField = () => z.string().max(2048, 'Invalid verification token').optional();

/**
 * An e-mail address: trimmed, at most 254 characters, and one message for whatever is wrong with it.
 * `emptyMessage` gives a blank (or missing) field a message of its own (the admin's test e-mail).
 */
export function emailField(emptyMessage?: string) {
  const text = z.string({ error: emptyMessage ?? FIELD_MESSAGES.email }).trim();
  return (emptyMessage ? text.min(1, emptyMessage) : text).max(FIELD_LIMITS.email, FIELD_MESSAGES.email).pipe(z.email(FIELD_MESSAGES.email));
}
