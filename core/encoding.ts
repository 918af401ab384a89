// Bytes as text, the one way the worker writes them: base64 (password hashes, webhook digests, the
// invite attachment), base64url (link tokens, public ids, cookie MACs, click signatures) and hex
// SHA-256 (what is stored of a secret or a link token). Stored hashes and sent tokens depend on
// these exact forms: change none of them.

/** Standard base64 with padding; built in chunks so a large body (an invite) fits the call stack. */
export function bytesToBase64(bytes: ArrayBuffer | Uint8Array): string {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  let binary = '';
  for (let i = 0; i < view.length; i += 0x8000) binary += String.fromCharCode(...view.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** The bytes of standard base64 (throws on text that is not base64, as atob does). */
export function base64ToBytes(b64: string): Uint8Array<ArrayBuffer> {
  const binary = atob(b64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** URL-safe base64 without padding (RFC 4648 §5). */
export const bytesToBase64Url = (bytes: ArrayBuffer | Uint8Array): string =>
  bytesToBase64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/** Lowercase hex, two digits a byte. */
export const bytesToHex = (bytes: ArrayBuffer | Uint8Array): string =>
  Array.from(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes), (b) => b.toString(16).padStart(2, '0')).join('');

/** The hex SHA-256 of a text's UTF-8 bytes. */
export async function sha256Hex(text: string): Promise<string> {
  return bytesToHex(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
}
