// A portal file at rest (docs/decisions/0022-client-portal-files.md, "Encryption"): a header, then
// the file in CHUNK_SIZE pieces, each sealed with AES-256-GCM on its own, so a 25 MB file streams
// into R2 and back out holding one chunk at a time.
//
//   header:  "WPF1" | chunk size (u32, big-endian) | salt (16 random bytes) | nonce (12 random bytes)
//   chunk i: AES-GCM(file key, nonce XOR i, plain bytes, additional data) = ciphertext | 16-byte tag
//
// The file key is HKDF-SHA-256(the PORTAL_FILE_KEYS key named by portal_files.key_id, salt, "portal
// file " + storage key): each file has a key of its own. The additional data of chunk i is the
// storage key, i and whether it is the last chunk, so a chunk moved within a file, taken from
// another file, or a file cut short after a chunk boundary fails its tag: decryption refuses it.

export const CHUNK_SIZE = 256 * 1024;
const TAG_BYTES = 16;
const MAGIC = [0x57, 0x50, 0x46, 0x31]; // "WPF1"
export const HEADER_BYTES = 4 + 4 + 16 + 12;
const encoder = new TextEncoder();

/** The chunks a file of `size` bytes is cut into (an empty file is never stored). */
const chunkCount = (size: number, chunkSize = CHUNK_SIZE) => Math.ceil(size / chunkSize);

/** The bytes in R2 for a file of `size` plain bytes: what the upload's FixedLengthStream is told. */
export const encryptedSize = (size: number) => HEADER_BYTES + size + chunkCount(size) * TAG_BYTES;

/** Refused while decrypting: the stored bytes are not what this file's key sealed. */
export class TamperedFileError extends Error {
  constructor(why: string) {
    super(`portal file refused: ${why}`);
    this.name = 'TamperedFileError';
  }
}

async function fileKey(master: CryptoKey, salt: Uint8Array<ArrayBuffer>, storageKey: string, usage: 'encrypt' | 'decrypt'): Promise<CryptoKey> {
  return crypto.subtle.deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt, info: encoder.encode(`portal file ${storageKey}`) },
    master,
    { name: 'AES-GCM', length: 256 },
    false,
    [usage],
  );
}

function chunkNonce(nonce: Uint8Array, index: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(nonce);
  const view = new DataView(out.buffer);
  view.setUint32(8, view.getUint32(8) ^ index);
  return out;
}

function additionalData(storageKey: string, index: number, last: boolean): Uint8Array<ArrayBuffer> {
  const name = encoder.encode(storageKey);
  const out = new Uint8Array(name.length + 5);
  out.set(name);
  new DataView(out.buffer).setUint32(name.length, index);
  out[name.length + 4] = last ? 1 : 0;
  return out;
}

export interface EncryptOptions {
  master: CryptoKey;
  storageKey: string;
  /** The plain bytes the stream will carry, exactly: more or fewer is an error. */
  size: number;
  /** Sees every plain piece as it passes, with its offset in the file (the type detector's capture). */
  inspect?: (plain: Uint8Array, offset: number) => void;
}

/** Why an upload's stream failed on purpose: its bytes are more or fewer than it declared. */
export class UploadStreamError extends Error {
  constructor(readonly reason: string) {
    super(`portal upload stopped: ${reason}`);
    this.name = 'UploadStreamError';
  }
}

/** Plain bytes in, the stored form out: the header first, then each chunk as it fills. */
export function encryptingStream(options: EncryptOptions): TransformStream<Uint8Array, Uint8Array> {
  const { master, storageKey, size } = options;
  const chunks = chunkCount(size);
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const nonce = crypto.getRandomValues(new Uint8Array(12));
  const key = fileKey(master, salt, storageKey, 'encrypt');
  const pending = new Uint8Array(Math.min(CHUNK_SIZE, size));
  let filled = 0;
  let index = 0;
  let seen = 0;

  const seal = async (last: boolean) => {
    const sealed = await crypto.subtle.encrypt(
      { name: 'AES-GCM', iv: chunkNonce(nonce, index), additionalData: additionalData(storageKey, index, last) },
      await key,
      pending.subarray(0, filled),
    );
    index++;
    filled = 0;
    return new Uint8Array(sealed);
  };

  return new TransformStream<Uint8Array, Uint8Array>({
    start(controller) {
      const header = new Uint8Array(HEADER_BYTES);
      header.set(MAGIC);
      new DataView(header.buffer).setUint32(4, CHUNK_SIZE);
      header.set(salt, 8);
      header.set(nonce, 24);
      controller.enqueue(header);
    },
    async transform(piece, controller) {
      if (seen + piece.length > size) throw new UploadStreamError('longer-than-declared');
      options.inspect?.(piece, seen);
      seen += piece.length;
      let at = 0;
      while (at < piece.length) {
        const take = Math.min(piece.length - at, pending.length - filled);
        pending.set(piece.subarray(at, at + take), filled);
        filled += take;
        at += take;
        // The last chunk waits for flush, once the length is known to be right.
        if (filled === pending.length && index < chunks - 1) controller.enqueue(await seal(false));
      }
    },
    async flush(controller) {
      if (seen !== size) throw new UploadStreamError('shorter-than-declared');
      controller.enqueue(await seal(true));
    },
  });
}

/** The stored form in, the plain bytes out; fails with TamperedFileError on any chunk that is not this file's. */
export function decryptingStream(master: CryptoKey, storageKey: string, size: number): TransformStream<Uint8Array, Uint8Array> {
  // The header, then one sealed chunk at a time, gathered in one buffer however R2 cuts its pieces.
  let buffer = new Uint8Array(HEADER_BYTES);
  let filled = 0;
  let key: Promise<CryptoKey> | null = null;
  let nonce = new Uint8Array(12);
  let chunkSize = 0;
  let chunks = 0;
  let index = 0;
  /** The sealed length of chunk `index`: the last one holds what is left. */
  const sealedLength = () => Math.min(chunkSize, size - index * chunkSize) + TAG_BYTES;

  const readHeader = () => {
    if (!MAGIC.every((b, i) => buffer[i] === b)) throw new TamperedFileError('not a portal file');
    chunkSize = new DataView(buffer.buffer).getUint32(4);
    if (chunkSize < 1024 || chunkSize > 16 * 1024 * 1024) throw new TamperedFileError('impossible chunk size');
    chunks = chunkCount(size, chunkSize);
    key = fileKey(master, buffer.slice(8, 24), storageKey, 'decrypt');
    nonce = buffer.slice(24, 36);
    buffer = new Uint8Array(chunkSize + TAG_BYTES);
  };

  const open = async () => {
    const last = index === chunks - 1;
    try {
      const plain = await crypto.subtle.decrypt(
        { name: 'AES-GCM', iv: chunkNonce(nonce, index), additionalData: additionalData(storageKey, index, last) },
        await key!,
        buffer.subarray(0, filled),
      );
      index++;
      return new Uint8Array(plain);
    } catch {
      throw new TamperedFileError(`chunk ${index} fails its tag`);
    }
  };

  return new TransformStream<Uint8Array, Uint8Array>({
    async transform(piece, controller) {
      let at = 0;
      while (at < piece.length) {
        if (key !== null && index === chunks) throw new TamperedFileError('bytes after the last chunk');
        const need = key === null ? HEADER_BYTES : sealedLength();
        const take = Math.min(piece.length - at, need - filled);
        buffer.set(piece.subarray(at, at + take), filled);
        filled += take;
        at += take;
        if (filled < need) continue;
        if (key === null) readHeader();
        else controller.enqueue(await open());
        filled = 0;
      }
    },
    flush() {
      if (key === null || index !== chunks || filled > 0) throw new TamperedFileError('cut short');
    },
  });
}
