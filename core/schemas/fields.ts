import { z } from 'zod';

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
  email: 'Please enter a valid email address',
} as const;

/** Required text: trimmed; missing or blank gets `required`, more than `max` characters `tooLong`. */
export const requiredText = (required: string, max: number, tooLong: string) => z.string({ error: required }).trim().min(1, required).max(max, tooLong);

/** A required name: trimmed, not blank, at most 100 characters (contact and booking forms). */
export const nameField = () => requiredText(FIELD_MESSAGES.nameRequired, FIELD_LIMITS.name, FIELD_MESSAGES.nameTooLong);

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
