/**
 * Verification of MailChannels' signed webhooks (docs/product.md §7, delivery events): the body's
 * Content-Digest (RFC 9530, sha-256), covered by an HTTP Message Signature (RFC 9421) made with
 * ed25519 under a key MailChannels publishes by key id. WebCrypto only, so it runs in workerd as is.
 *
 * What MailChannels sends (https://docs.mailchannels.net/email-api/advanced/delivery-events):
 *   Content-Digest: sha-256=:<base64 of the body's SHA-256>:
 *   Signature-Input: sig_mc=("content-digest");created=1700000000;alg="ed25519";keyid="<id>"
 *   Signature: sig_mc=:<base64 ed25519 signature>:
 */

import { base64ToBytes, bytesToBase64 } from '#core/encoding';

/** Signatures older than this are refused (a captured request cannot be replayed later). */
export const MAX_SIGNATURE_AGE_SECONDS = 5 * 60;
/** A signature dated this far in the future is still accepted (the two clocks are never equal). */
export const MAX_CLOCK_SKEW_SECONDS = 60;

/** Why a request is not what MailChannels signed: the route answers 401 with this message. */
export class WebhookSignatureError extends Error {
  override readonly name = 'WebhookSignatureError';
}

/** The public key could not be fetched (MailChannels down): the route answers 503 and MailChannels retries. */
export class WebhookKeyUnavailableError extends Error {
  override readonly name = 'WebhookKeyUnavailableError';
}

/** One member of a Signature-Input dictionary: its label, covered components and parameters. */
export interface SignatureInput {
  label: string;
  components: string[];
  params: Record<string, string | number | boolean>;
  /** The member's value exactly as received: the "@signature-params" line of the signature base. */
  raw: string;
}

/** Splits a structured-field dictionary or list on its top-level commas (none inside strings, lists or byte sequences). */
function splitTopLevel(value: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let inString = false;
  let inBytes = false;
  let start = 0;
  for (let i = 0; i < value.length; i++) {
    const ch = value[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === ':' && depth === 0) inBytes = !inBytes;
    else if (!inBytes && ch === '(') depth++;
    else if (!inBytes && ch === ')') depth--;
    else if (ch === separator && depth === 0 && !inBytes) {
      parts.push(value.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(value.slice(start));
  return parts.map((p) => p.trim()).filter(Boolean);
}

function parseBareItem(text: string): string | number | boolean {
  if (text.startsWith('"') && text.endsWith('"') && text.length >= 2) return text.slice(1, -1).replace(/\\(["\\])/g, '$1');
  if (/^-?\d+$/.test(text)) return Number(text);
  if (text === '?1') return true;
  if (text === '?0') return false;
  return text; // a token
}

/**
 * Parses Signature-Input (RFC 9421 §4.1): a dictionary whose members are inner lists of component
 * identifiers with parameters. Malformed members are left out.
 */
export function parseSignatureInput(header: string): SignatureInput[] {
  const members: SignatureInput[] = [];
  for (const member of splitTopLevel(header, ',')) {
    const match = /^([a-z*][a-z0-9_\-.*]*)=(\((.*?)\)(.*))$/.exec(member);
    if (!match) continue;
    const [, label, raw, inner, paramText] = match;
    const components = inner.trim() ? inner.trim().split(/\s+/) : [];
    if (!components.every((c) => /^"[^"]+"$/.test(c))) continue;
    const params: SignatureInput['params'] = {};
    for (const param of splitTopLevel(paramText, ';')) {
      const eq = param.indexOf('=');
      const key = (eq === -1 ? param : param.slice(0, eq)).trim();
      params[key] = eq === -1 ? true : parseBareItem(param.slice(eq + 1).trim());
    }
    members.push({ label, components: components.map((c) => c.slice(1, -1)), params, raw });
  }
  return members;
}

/** The byte sequence a Signature dictionary gives for one label (`label=:base64:`), or null. */
export function signatureFor(header: string, label: string): Uint8Array<ArrayBuffer> | null {
  for (const member of splitTopLevel(header, ',')) {
    const match = /^([a-z*][a-z0-9_\-.*]*)=:([A-Za-z0-9+/=]*):$/.exec(member);
    if (match && match[1] === label) {
      try {
        return base64ToBytes(match[2]);
      } catch {
        return null; // not base64 after all
      }
    }
  }
  return null;
}

/**
 * The Content-Digest header value MailChannels computes for a body: `sha-256=:<base64>:`. The
 * digest is of the bytes as they travel: the route passes the raw request bytes, never a decoded
 * text (decoding drops a leading byte-order mark, so a body with one prepended would still match).
 * A string is taken as its UTF-8 bytes (the test fakes and the benchmark sign text).
 */
export async function contentDigest(body: Uint8Array<ArrayBuffer> | string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', typeof body === 'string' ? new TextEncoder().encode(body) : body);
  return `sha-256=:${bytesToBase64(digest)}:`;
}

/** True when the header carries a sha-256 digest equal to the body's (other algorithms are ignored). */
async function digestMatches(header: string, body: Uint8Array<ArrayBuffer>): Promise<boolean> {
  const expected = (await contentDigest(body)).slice('sha-256='.length);
  return splitTopLevel(header, ',').some((member) => {
    const eq = member.indexOf('=');
    return eq !== -1 && member.slice(0, eq).trim().toLowerCase() === 'sha-256' && member.slice(eq + 1).trim() === expected;
  });
}

/** The value of one covered component (RFC 9421 §2): a header field, or a derived component of the request. */
function componentValue(name: string, request: Request): string {
  const url = new URL(request.url);
  switch (name) {
    case '@method':
      return request.method.toUpperCase();
    case '@target-uri':
      return url.href;
    case '@authority':
      return url.host.toLowerCase();
    case '@scheme':
      return url.protocol.replace(/:$/, '');
    case '@path':
      return url.pathname;
    case '@query':
      return url.search || '?';
    case '@request-target':
      return `${url.pathname}${url.search}`;
    default: {
      if (name.startsWith('@')) throw new WebhookSignatureError(`Unsupported signature component ${name}`);
      const value = request.headers.get(name);
      if (value === null) throw new WebhookSignatureError(`The signed header ${name} is missing`);
      return value.trim();
    }
  }
}

/**
 * The signature base (RFC 9421 §2.5): one `"component": value` line per covered component, in the
 * order listed, then the `"@signature-params"` line carrying the Signature-Input member itself.
 */
export function signatureBase(input: SignatureInput, request: Request): string {
  const lines = input.components.map((name) => `"${name}": ${componentValue(name, request)}`);
  lines.push(`"@signature-params": ${input.raw}`);
  return lines.join('\n');
}

/** Imports MailChannels' public key: base64 SPKI (PEM armour tolerated), or the raw 32 bytes. */
export async function importPublicKey(encoded: string): Promise<CryptoKey> {
  const bytes = base64ToBytes(encoded.replace(/-----[^-]+-----|\s/g, ''));
  return crypto.subtle.importKey(bytes.length === 32 ? 'raw' : 'spki', bytes, { name: 'Ed25519' }, false, ['verify']);
}

export interface VerifiedWebhook {
  keyId: string;
  created: number;
}

/**
 * Checks a webhook request against its raw body (the request's bytes, not their text). Throws WebhookSignatureError when anything is
 * missing, tampered, stale or signed by another key, and lets WebhookKeyUnavailableError from
 * `publicKey` through. The cheap checks (headers, digest, age) come before the key is fetched, so
 * junk requests never reach MailChannels.
 */
export async function verifyWebhook(
  request: Request,
  body: Uint8Array<ArrayBuffer>,
  publicKey: (keyId: string) => Promise<string>,
  now = Date.now(),
): Promise<VerifiedWebhook> {
  const digestHeader = request.headers.get('content-digest');
  const inputHeader = request.headers.get('signature-input');
  const signatureHeader = request.headers.get('signature');
  if (!digestHeader || !inputHeader || !signatureHeader) throw new WebhookSignatureError('The request is not signed');
  if (!(await digestMatches(digestHeader, body))) throw new WebhookSignatureError('The body does not match its Content-Digest');

  // The member that covers the digest and has a signature under the same label.
  const input = parseSignatureInput(inputHeader).find((m) => m.components.includes('content-digest') && signatureFor(signatureHeader, m.label));
  if (!input) throw new WebhookSignatureError('No signature covers the Content-Digest');
  const { created, keyid, alg } = input.params;
  if (typeof keyid !== 'string' || !keyid || keyid.length > 200) throw new WebhookSignatureError('The signature has no key id');
  if (alg !== undefined && alg !== 'ed25519') throw new WebhookSignatureError('Unsupported signature algorithm');
  if (typeof created !== 'number') throw new WebhookSignatureError('The signature has no creation time');
  const nowSeconds = Math.floor(now / 1000);
  if (nowSeconds - created > MAX_SIGNATURE_AGE_SECONDS) throw new WebhookSignatureError('The signature has expired');
  if (created - nowSeconds > MAX_CLOCK_SKEW_SECONDS) throw new WebhookSignatureError('The signature is dated in the future');
  if (typeof input.params.expires === 'number' && input.params.expires < nowSeconds) throw new WebhookSignatureError('The signature has expired');

  const base = signatureBase(input, request);
  const key = await importPublicKey(await publicKey(keyid)).catch((error: unknown) => {
    if (error instanceof WebhookKeyUnavailableError || error instanceof WebhookSignatureError) throw error;
    throw new WebhookKeyUnavailableError('MailChannels returned a public key that cannot be read');
  });
  const signature = signatureFor(signatureHeader, input.label)!;
  // A signature of the wrong length makes some runtimes throw instead of answering false.
  const valid = await crypto.subtle.verify({ name: 'Ed25519' }, key, signature, new TextEncoder().encode(base)).catch(() => false);
  if (!valid) throw new WebhookSignatureError('The signature does not verify');
  return { keyId: keyid, created };
}
