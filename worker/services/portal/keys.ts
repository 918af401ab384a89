// The portal's file keys, from the PORTAL_FILE_KEYS secret: "<id>:<base64 of 32 bytes>" entries
// separated by commas, the first the key new files are encrypted with, the others kept so the files
// they encrypted still open (docs/decisions/0022-client-portal-files.md, "Keys and rotation").
import { base64ToBytes } from '#core/encoding';

/** A key's id, stored with every file it encrypts (portal_files.key_id). */
const KEY_ID = /^[A-Za-z0-9-]{1,16}$/;

export interface FileKeys {
  /** The key new files are encrypted with. */
  current: { id: string; key: CryptoKey };
  /** Every key by its id, the current one too. */
  byId: ReadonlyMap<string, CryptoKey>;
}

export type FileKeysResult = { ok: true; keys: FileKeys } | { ok: false; problem: string };

const parsed = new Map<string, Promise<FileKeysResult>>();

/**
 * The keys a PORTAL_FILE_KEYS value holds, or why it holds none usable (never quoting a key). Each is
 * imported once per isolate as HKDF key material, not extractable: every file's own AES-GCM key is
 * derived from it (worker/services/portal/chunks.ts).
 */
export function parseFileKeys(secret: string | undefined): Promise<FileKeysResult> {
  const value = secret?.trim() ?? '';
  let result = parsed.get(value);
  if (!result) {
    // A handful of values at most in an isolate's life (a rotation, the tests' keys).
    if (parsed.size >= 8) parsed.clear();
    result = parse(value);
    parsed.set(value, result);
  }
  return result;
}

async function parse(value: string): Promise<FileKeysResult> {
  if (value === '') return { ok: false, problem: 'PORTAL_FILE_KEYS is not set' };
  const entries: { id: string; bytes: Uint8Array<ArrayBuffer> }[] = [];
  for (const [n, entry] of value.split(',').entries()) {
    const colon = entry.indexOf(':');
    const id = entry.slice(0, colon).trim();
    if (colon < 0 || !KEY_ID.test(id)) return { ok: false, problem: `PORTAL_FILE_KEYS entry ${n + 1} has no id (letters, digits, '-', at most 16) before a ':'` };
    if (entries.some((e) => e.id === id)) return { ok: false, problem: `PORTAL_FILE_KEYS names the key id "${id}" twice` };
    let bytes: Uint8Array<ArrayBuffer>;
    try {
      bytes = base64ToBytes(entry.slice(colon + 1).trim());
    } catch {
      return { ok: false, problem: `PORTAL_FILE_KEYS key "${id}" is not base64` };
    }
    if (bytes.length !== 32) return { ok: false, problem: `PORTAL_FILE_KEYS key "${id}" is ${bytes.length} bytes, not 32` };
    entries.push({ id, bytes });
  }
  const byId = new Map<string, CryptoKey>();
  for (const { id, bytes } of entries) byId.set(id, await crypto.subtle.importKey('raw', bytes, 'HKDF', false, ['deriveKey']));
  const id = entries[0].id;
  return { ok: true, keys: { current: { id, key: byId.get(id)! }, byId } };
}
