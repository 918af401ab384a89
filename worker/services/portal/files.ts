// The portal's files in R2 (docs/decisions/0022-client-portal-files.md): stored encrypted under a
// random key, read back through the worker only, deleted with a record kept. Nothing here checks
// who is asking: the use cases of the next step do, and every lookup here is by file AND client,
// so no caller can reach a file of another client by its id.
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { insertWhen } from '../../db/granted-batch';
import { portalFiles } from '../../db/schema';
import { decryptingStream, encryptedSize, encryptingStream, UploadStreamError } from './chunks';
import { HEAD_BYTES, judgeHead, judgeOleDirectory, judgeZipTail, MEDIA_TYPES, TAIL_BYTES, type FileType } from './file-type';
import type { FileKeys } from './keys';

/** The largest file the portal takes (issue 52): 25 MB. */
export const MAX_FILE_BYTES = 25 * 1024 * 1024;
/** What one client's files may hold in all, counting only files not deleted. */
export const CLIENT_STORAGE_CAP_BYTES = 500 * 1024 * 1024;

/** What the file functions work on: the database, the DOCUMENTS bucket and the parsed keys. */
export interface PortalStorage {
  db: Db;
  bucket: R2Bucket;
  keys: FileKeys;
}

export interface StoreFileInput {
  clientId: number;
  /** The request and checklist item a client's upload answers; a document staff send may name a request only, or neither. */
  requestId?: number | null;
  itemId?: number | null;
  /** As the sender named it: shown and offered as the download's name, never used as a key. */
  originalName: string;
  /** The bytes the body will carry (the upload's declared length): checked against the caps before any is read. */
  size: number;
  body: ReadableStream<Uint8Array>;
  createdBy: { kind: 'client' | 'staff'; id: number };
}

export type StoreRefusal = 'empty' | 'too-large' | 'client-storage-full' | 'type-refused' | 'size-mismatch';
export type StoreFileResult = { ok: true; file: { id: number; storageKey: string; type: FileType; size: number } } | { ok: false; reason: StoreRefusal };

/** A random key (256 bits, hex) that says nothing of the file, its client or its name. */
const newStorageKey = () => `portal/${[...crypto.getRandomValues(new Uint8Array(32))].map((b) => b.toString(16).padStart(2, '0')).join('')}`;

/** The bytes a client's files hold now (deleted ones not counted). */
function usedBySql(clientId: number) {
  return sql`(select coalesce(sum(${portalFiles.size}), 0) from ${portalFiles} where ${portalFiles.clientId} = ${clientId} and ${portalFiles.deletedAt} is null)`;
}

export async function clientStorageUsed(db: Db, clientId: number): Promise<number> {
  const [row] = await db.all<{ used: number }>(sql`select ${usedBySql(clientId)} as used`);
  return row?.used ?? 0;
}

/** Reads the body until it has `length` bytes (or ends): the head, and a reader to carry on from. */
async function readHead(body: ReadableStream<Uint8Array>, length: number) {
  const reader = body.getReader();
  const pieces: Uint8Array[] = [];
  let have = 0;
  while (have < length) {
    const { done, value } = await reader.read();
    if (done) break;
    pieces.push(value);
    have += value.length;
  }
  const head = new Uint8Array(have);
  let at = 0;
  for (const piece of pieces) {
    head.set(piece, at);
    at += piece.length;
  }
  // The head's bytes first, then the rest of the body.
  const rest = new ReadableStream<Uint8Array>({
    start(controller) {
      if (head.length > 0) controller.enqueue(head);
    },
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  return { head: head.subarray(0, Math.min(length, head.length)), rest, cancel: () => reader.cancel() };
}

/** Keeps the bytes of [start, start + length) of a file as its pieces stream by. */
function capture(start: number, length: number) {
  const bytes = new Uint8Array(length);
  return {
    bytes,
    inspect(piece: Uint8Array, offset: number) {
      const from = Math.max(offset, start);
      const to = Math.min(offset + piece.length, start + length);
      if (from < to) bytes.set(piece.subarray(from - offset, to - offset), from - start);
    },
  };
}

/**
 * Stores a file: refused before a byte is read when it is empty, over MAX_FILE_BYTES or over the
 * client's cap; refused on its first bytes when they are no accepted type; otherwise encrypted on
 * its way into R2, a ZIP or OLE file judged once its last bytes have passed (refused, its bytes
 * are deleted before the function returns: R2 keeps nothing of it). The row is written with the cap checked
 * again in the same statement, so two uploads at once cannot both pass it.
 */
export async function storeFile(storage: PortalStorage, input: StoreFileInput): Promise<StoreFileResult> {
  const refuse = async (reason: StoreRefusal): Promise<StoreFileResult> => {
    await input.body.cancel().catch(() => undefined);
    return { ok: false, reason };
  };
  const { size } = input;
  if (!Number.isSafeInteger(size) || size <= 0) return refuse('empty');
  if (size > MAX_FILE_BYTES) return refuse('too-large');
  if ((await clientStorageUsed(storage.db, input.clientId)) + size > CLIENT_STORAGE_CAP_BYTES) return refuse('client-storage-full');

  const { head, rest, cancel } = await readHead(input.body, Math.min(HEAD_BYTES, size));
  const verdict = judgeHead(head, size);
  if (verdict.kind === 'refused') {
    await cancel().catch(() => undefined);
    return { ok: false, reason: head.length < Math.min(HEAD_BYTES, size) ? 'size-mismatch' : 'type-refused' };
  }
  const tailLength = Math.min(TAIL_BYTES, size);
  const piece = verdict.kind === 'zip' ? capture(size - tailLength, tailLength) : verdict.kind === 'ole' ? capture(verdict.offset, verdict.length) : null;

  const storageKey = newStorageKey();
  const { id: keyId, key } = storage.keys.current;
  // R2 takes a stream of a length known in advance: the encrypted length of the declared size. A
  // body longer or shorter than it said fails the encrypting stream, and with it the put.
  const fixed = new FixedLengthStream(encryptedSize(size));
  try {
    await Promise.all([
      rest.pipeThrough(encryptingStream({ master: key, storageKey, size, inspect: piece?.inspect })).pipeTo(fixed.writable),
      storage.bucket.put(storageKey, fixed.readable),
    ]);
  } catch (error) {
    await storage.bucket.delete(storageKey);
    if (error instanceof UploadStreamError) return { ok: false, reason: 'size-mismatch' };
    throw error;
  }
  // A ZIP or OLE file is judged once its last bytes have passed: refused, its (encrypted) bytes
  // are deleted at once, before anything refers to them.
  const type = verdict.kind === 'type' ? verdict.type : verdict.kind === 'zip' ? judgeZipTail(piece!.bytes, size) : judgeOleDirectory(piece!.bytes);
  if (!type) {
    await storage.bucket.delete(storageKey);
    return { ok: false, reason: 'type-refused' };
  }

  const values = {
    storageKey,
    clientId: input.clientId,
    requestId: input.requestId ?? null,
    itemId: input.itemId ?? null,
    originalName: input.originalName,
    detectedType: type,
    size,
    keyId,
    createdByKind: input.createdBy.kind,
    createdById: input.createdBy.id,
    createdAt: new Date(),
  };
  let rows: { id: number }[];
  try {
    rows = await insertWhen(storage.db, portalFiles, values, sql`${usedBySql(input.clientId)} + ${size} <= ${CLIENT_STORAGE_CAP_BYTES}`).returning({ id: portalFiles.id });
  } catch (error) {
    await storage.bucket.delete(storageKey);
    throw error;
  }
  if (rows.length === 0) {
    await storage.bucket.delete(storageKey);
    return { ok: false, reason: 'client-storage-full' };
  }
  return { ok: true, file: { id: rows[0].id, storageKey, type, size } };
}

export type ReadFileResult =
  | { ok: true; file: { id: number; name: string; type: FileType; mediaType: string; size: number }; body: ReadableStream<Uint8Array> }
  | { ok: false; reason: 'not-found' | 'unknown-key' | 'bytes-missing' };

/**
 * A file of this client, decrypted as it streams out of R2. A file of another client, a deleted
 * one and an unknown id are all 'not-found'. A chunk that fails its tag errors the stream
 * (TamperedFileError): the download stops there, and no byte of that chunk is given out.
 */
export async function readFile(storage: PortalStorage, fileId: number, clientId: number): Promise<ReadFileResult> {
  const [row] = await storage.db
    .select()
    .from(portalFiles)
    .where(and(eq(portalFiles.id, fileId), eq(portalFiles.clientId, clientId), isNull(portalFiles.deletedAt)));
  if (!row) return { ok: false, reason: 'not-found' };
  const master = storage.keys.byId.get(row.keyId);
  if (!master) return { ok: false, reason: 'unknown-key' };
  const object = await storage.bucket.get(row.storageKey);
  if (!object) return { ok: false, reason: 'bytes-missing' };
  return {
    ok: true,
    file: { id: row.id, name: row.originalName, type: row.detectedType, mediaType: MEDIA_TYPES[row.detectedType], size: row.size },
    body: object.body.pipeThrough(decryptingStream(master, row.storageKey, row.size)),
  };
}

/**
 * Deletes a file's bytes from R2, then marks its row deleted (kept as the record). R2's delete
 * first: a failure between the two leaves a row still marked held, which a second delete finishes.
 */
export async function deleteFile(storage: Pick<PortalStorage, 'db' | 'bucket'>, fileId: number, clientId: number, at = new Date()): Promise<{ ok: true } | { ok: false; reason: 'not-found' }> {
  const [row] = await storage.db
    .select({ storageKey: portalFiles.storageKey })
    .from(portalFiles)
    .where(and(eq(portalFiles.id, fileId), eq(portalFiles.clientId, clientId), isNull(portalFiles.deletedAt)));
  if (!row) return { ok: false, reason: 'not-found' };
  await storage.bucket.delete(row.storageKey);
  await storage.db.update(portalFiles).set({ deletedAt: at }).where(and(eq(portalFiles.id, fileId), isNull(portalFiles.deletedAt)));
  return { ok: true };
}
