// Logs never carry personal data (docs/product.md §8): no request
// bodies, no query strings, no addresses, tokens or hashes. An error is logged by its name and
// message only, never as the object: Drizzle's DrizzleQueryError puts the query's parameters (an
// e-mail address, a message, a password hash) into its message after "params:", and the object's
// own fields and stack carry them too.

import { redactSecrets } from '../../mail-redaction';

const EMAIL_ADDRESS = /[^\s@"'<>,;:()[\]]+@[^\s@"'<>,;:()[\]]+\.[a-z]{2,}/gi;
const JWT = /\beyJ[\w-]+\.[\w-]+\.[\w-]*/g;
/** Hex or base64 runs, with a digit, as long as a SHA-256 hash: IP hashes, password hashes, secrets (not SQL names). */
const LONG_OPAQUE = /\b(?=[A-Za-z_+/-]*\d)[A-Za-z0-9+/_-]{32,}={0,2}/g;

/** Drops the parameters Drizzle appends to a failed query's message. */
function withoutParams(message: string): string {
  return message.replace(/\s*params:[\s\S]*$/, '');
}

function scrub(text: string): string {
  // A link's secret first, whatever its length (worker/mail-redaction.ts), then the shapes below.
  return redactSecrets(text).replace(JWT, '[token]').replace(EMAIL_ADDRESS, '[address]').replace(LONG_OPAQUE, '[redacted]');
}

function describeOne(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${scrub(withoutParams(error.message))}`;
  return typeof error === 'string' ? scrub(withoutParams(error)) : 'a non-Error value was thrown';
}

/** "Name: message <- Name: message" for an error and its causes, safe to log. */
export function safeErrorSummary(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 3 && current !== undefined && current !== null; depth++) {
    parts.push(describeOne(current));
    current = current instanceof Error ? current.cause : undefined;
  }
  return parts.join(' <- ');
}
