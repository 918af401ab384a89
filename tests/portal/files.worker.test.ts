import { env } from 'cloudflare:test';
import { afterEach, describe, expect, it } from 'vitest';
import { getDb } from '../../worker/db/client';
import { portalFiles } from '../../worker/db/schema';
import { CLIENT_STORAGE_CAP_BYTES, deleteFile, MAX_FILE_BYTES, parseFileKeys, readFile, storeFile, TamperedFileError, type PortalStorage } from '../../worker/services/portal';
import { CHUNK_SIZE, encryptedSize, HEADER_BYTES } from '../../worker/services/portal/chunks';
import { clientWithRequest, emptyBucket, keysOf, randomKey, storageWith, storedKeys, streamOf } from '../harness/worker/portal-samples';

// The portal's files at rest (docs/decisions/0022-client-portal-files.md): encrypted in chunks under
// a random key in the DOCUMENTS bucket, capped, read back only by file and client.

afterEach(emptyBucket);

const TAG = 16;
const SEALED = CHUNK_SIZE + TAG;

/** A PDF of `size` bytes: the header, then random bytes (nothing a cipher could leave as it is). */
function pdfOf(size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  for (let at = 0; at < size; at += 65_536) crypto.getRandomValues(bytes.subarray(at, Math.min(size, at + 65_536)));
  bytes.set(new TextEncoder().encode('%PDF-1.7\n'));
  return bytes;
}

async function store(storage: PortalStorage, clientId: number, bytes: Uint8Array, size = bytes.length) {
  return storeFile(storage, { clientId, originalName: 'W-2 Acme.pdf', size, body: streamOf(bytes), createdBy: { kind: 'client', id: clientId } });
}

async function storedOk(storage: PortalStorage, clientId: number, bytes: Uint8Array) {
  const stored = await store(storage, clientId, bytes);
  if (!stored.ok) throw new Error(`not stored: ${stored.reason}`);
  return stored.file;
}

async function readAll(storage: PortalStorage, fileId: number, clientId: number): Promise<Uint8Array> {
  const read = await readFile(storage, fileId, clientId);
  if (!read.ok) throw new Error(`not read: ${read.reason}`);
  return new Uint8Array(await new Response(read.body).arrayBuffer());
}

const atRest = async (key: string) => new Uint8Array(await (await env.DOCUMENTS.get(key))!.arrayBuffer());
const putAtRest = (key: string, bytes: Uint8Array) => env.DOCUMENTS.put(key, bytes);

/** Whether `needle` occurs anywhere in `hay`. */
function contains(hay: Uint8Array, needle: Uint8Array): boolean {
  outer: for (let i = 0; i + needle.length <= hay.length; i++) {
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

describe('portal files at rest', () => {
  it('keeps other bytes than were uploaded, under a random key, and gives back exactly the upload (several chunks)', async () => {
    const storage = await storageWith(`k1:${randomKey()}`);
    const { client } = await clientWithRequest();
    const plain = pdfOf(3 * CHUNK_SIZE + 12_345);
    const file = await storedOk(storage, client.id, plain);
    expect(file.storageKey).toMatch(/^portal\/[0-9a-f]{64}$/);
    expect(file.storageKey).not.toContain('W-2');

    const stored = await atRest(file.storageKey);
    expect(stored.length).toBe(encryptedSize(plain.length));
    expect(contains(stored, new TextEncoder().encode('%PDF'))).toBe(false);
    // No 32-byte run of the upload, from any of its chunks, is in the stored bytes.
    for (const at of [0, 100, CHUNK_SIZE, 3 * CHUNK_SIZE + 100]) expect(contains(stored, plain.subarray(at, at + 32)), `plain bytes at ${at}`).toBe(false);

    const back = await readAll(storage, file.id, client.id);
    expect(back.length).toBe(plain.length);
    expect(back.every((b, i) => b === plain[i])).toBe(true);
    const [row] = await getDb(env.DB).select().from(portalFiles);
    expect(row).toMatchObject({ originalName: 'W-2 Acme.pdf', detectedType: 'pdf', size: plain.length, keyId: 'k1', clientId: client.id, createdByKind: 'client', deletedAt: null });
  });

  it('refuses a tampered, reordered, swapped or cut chunk', async () => {
    const storage = await storageWith(`k1:${randomKey()}`);
    const { client } = await clientWithRequest();
    const a = await storedOk(storage, client.id, pdfOf(3 * CHUNK_SIZE));
    const b = await storedOk(storage, client.id, pdfOf(3 * CHUNK_SIZE));
    const original = await atRest(a.storageKey);
    const other = await atRest(b.storageKey);
    const chunk = (bytes: Uint8Array, i: number) => bytes.slice(HEADER_BYTES + i * SEALED, HEADER_BYTES + (i + 1) * SEALED);
    const withChunks = (parts: Uint8Array[]) => {
      const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
      let at = 0;
      for (const p of parts) {
        out.set(p, at);
        at += p.length;
      }
      return out;
    };
    const header = original.slice(0, HEADER_BYTES);
    const flipped = original.slice();
    flipped[HEADER_BYTES + SEALED + 500] ^= 1;
    const cases: [string, Uint8Array][] = [
      ['a flipped bit in chunk 1', flipped],
      ['chunks 0 and 1 swapped', withChunks([header, chunk(original, 1), chunk(original, 0), chunk(original, 2)])],
      ["chunk 1 of another file (same key, same place)", withChunks([header, chunk(original, 0), chunk(other, 1), chunk(original, 2)])],
      ['the last chunk dropped', withChunks([header, chunk(original, 0), chunk(original, 1)])],
      ['a middle chunk repeated as the last', withChunks([header, chunk(original, 0), chunk(original, 1), chunk(original, 1)])],
      ["another file's header", withChunks([other.slice(0, HEADER_BYTES), chunk(original, 0), chunk(original, 1), chunk(original, 2)])],
    ];
    for (const [what, bytes] of cases) {
      await putAtRest(a.storageKey, bytes);
      await expect(readAll(storage, a.id, client.id), what).rejects.toBeInstanceOf(TamperedFileError);
    }
    await putAtRest(a.storageKey, original);
    expect((await readAll(storage, a.id, client.id)).length).toBe(3 * CHUNK_SIZE);
  });

  it('refuses a file over 25 MB before reading it, and one longer than it said while reading, storing nothing', async () => {
    const storage = await storageWith(`k1:${randomKey()}`);
    const { client } = await clientWithRequest();
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(pdfOf(1024));
      },
    });
    expect(await storeFile(storage, { clientId: client.id, originalName: 'big.pdf', size: MAX_FILE_BYTES + 1, body: endless, createdBy: { kind: 'client', id: client.id } })).toEqual({ ok: false, reason: 'too-large' });
    expect(pulled).toBeLessThanOrEqual(1);
    // Declared under the cap, but the body goes on: stopped at the declared length.
    const longer = pdfOf(2 * CHUNK_SIZE);
    expect(await store(storage, client.id, longer, CHUNK_SIZE)).toEqual({ ok: false, reason: 'size-mismatch' });
    expect(await store(storage, client.id, pdfOf(1000), 2000)).toEqual({ ok: false, reason: 'size-mismatch' });
    expect(await store(storage, client.id, new Uint8Array(0))).toEqual({ ok: false, reason: 'empty' });
    expect(await storedKeys()).toEqual([]);
    expect(await getDb(env.DB).select().from(portalFiles)).toEqual([]);
  });

  it("keeps each client under the storage cap, counting only files still held", async () => {
    const storage = await storageWith(`k1:${randomKey()}`);
    const { client } = await clientWithRequest();
    const { client: other } = await clientWithRequest('other@example.com');
    const db = getDb(env.DB);
    // Files already held (rows only: their size is what the cap counts): the cap less 1,000 bytes.
    const held = { clientId: client.id, originalName: 'old.pdf', detectedType: 'pdf' as const, keyId: 'k1', createdByKind: 'client' as const, createdById: client.id };
    await db.insert(portalFiles).values([
      { ...held, storageKey: 'portal/held-1', size: CLIENT_STORAGE_CAP_BYTES - 21_000 },
      { ...held, storageKey: 'portal/held-2', size: 20_000 },
      // A deleted file does not count.
      { ...held, storageKey: 'portal/gone', size: 20_000_000, deletedAt: new Date() },
    ]);
    expect(await store(storage, client.id, pdfOf(1001))).toEqual({ ok: false, reason: 'client-storage-full' });
    expect(await storedKeys()).toEqual([]);
    expect((await store(storage, client.id, pdfOf(1000))).ok).toBe(true);
    expect(await store(storage, client.id, pdfOf(100))).toEqual({ ok: false, reason: 'client-storage-full' });
    // Another client's room is their own.
    expect((await store(storage, other.id, pdfOf(5000))).ok).toBe(true);
    expect(await storedKeys()).toHaveLength(2);
  });

  it('reads a file written with an older key after a new key becomes current, and writes new files with the new one', async () => {
    const k1 = randomKey();
    const before = await storageWith(`k1:${k1}`);
    const { client } = await clientWithRequest();
    const plain = pdfOf(CHUNK_SIZE + 10);
    const old = await storedOk(before, client.id, plain);

    const after = await storageWith(`k2:${randomKey()},k1:${k1}`);
    expect(after.keys.current.id).toBe('k2');
    expect((await readAll(after, old.id, client.id)).every((b, i) => b === plain[i])).toBe(true);
    const fresh = await storedOk(after, client.id, pdfOf(2000));
    const rows = await getDb(env.DB).select({ id: portalFiles.id, keyId: portalFiles.keyId }).from(portalFiles);
    expect(rows).toEqual([
      { id: old.id, keyId: 'k1' },
      { id: fresh.id, keyId: 'k2' },
    ]);
    // Once k1 is dropped its files no longer open: a key is kept while any file names it.
    const withoutOld = { ...after, keys: await keysOf(`k2:${randomKey()}`) };
    expect(await readFile(withoutOld, old.id, client.id)).toEqual({ ok: false, reason: 'unknown-key' });
    // The same id with another key's bytes fails every tag.
    const impostor = { ...after, keys: await keysOf(`k1:${randomKey()}`) };
    await expect(readAll(impostor, old.id, client.id)).rejects.toBeInstanceOf(TamperedFileError);
  });

  it("never reads or deletes another client's file, and a deleted file is gone from R2 but recorded", async () => {
    const storage = await storageWith(`k1:${randomKey()}`);
    const { client } = await clientWithRequest();
    const { client: other } = await clientWithRequest('other@example.com');
    const file = await storedOk(storage, client.id, pdfOf(500));
    expect(await readFile(storage, file.id, other.id)).toEqual({ ok: false, reason: 'not-found' });
    expect(await deleteFile(storage, file.id, other.id)).toEqual({ ok: false, reason: 'not-found' });
    expect(await storedKeys()).toEqual([file.storageKey]);

    expect(await deleteFile(storage, file.id, client.id)).toEqual({ ok: true });
    expect(await storedKeys()).toEqual([]);
    expect(await readFile(storage, file.id, client.id)).toEqual({ ok: false, reason: 'not-found' });
    expect(await deleteFile(storage, file.id, client.id)).toEqual({ ok: false, reason: 'not-found' });
    const [row] = await getDb(env.DB).select().from(portalFiles);
    expect(row.deletedAt).toBeInstanceOf(Date);
  });
});

describe('PORTAL_FILE_KEYS', () => {
  it('takes "id:base64" entries, the first current, and says what is wrong with a bad value without quoting a key', async () => {
    const good = randomKey();
    expect(await parseFileKeys(undefined)).toEqual({ ok: false, problem: 'PORTAL_FILE_KEYS is not set' });
    expect(await parseFileKeys(`${good}`)).toMatchObject({ ok: false, problem: expect.stringMatching(/no id/) });
    expect(await parseFileKeys(`k1:${good},k1:${randomKey()}`)).toMatchObject({ ok: false, problem: expect.stringMatching(/twice/) });
    const short = btoa('sixteen bytes...');
    const problem = await parseFileKeys(`k1:${short}`);
    expect(problem).toMatchObject({ ok: false, problem: expect.stringMatching(/16 bytes, not 32/) });
    expect(JSON.stringify(problem)).not.toContain(short);
    expect(await parseFileKeys(`k1:not base64!`)).toMatchObject({ ok: false, problem: expect.stringMatching(/not base64/) });
    const parsed = await parseFileKeys(` k3:${good} , k2:${randomKey()}`);
    expect(parsed.ok && [parsed.keys.current.id, [...parsed.keys.byId.keys()]]).toEqual(['k3', ['k3', 'k2']]);
  });
});
