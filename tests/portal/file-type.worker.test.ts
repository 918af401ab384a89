import { env } from 'cloudflare:test';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { detectFileType, storeFile, type FileType } from '../../worker/services/portal';
import { ACCEPTED, clientWithRequest, emptyBucket, randomKey, REFUSED, storageWith, storedKeys, streamOf, zip } from '../harness/worker/portal-samples';

// Types by their bytes, never their name (docs/decisions/0022-client-portal-files.md, "Types").

afterEach(emptyBucket);

describe('portal file types', () => {
  it('names every accepted type from a real minimal sample', () => {
    for (const [type, bytes] of Object.entries(ACCEPTED)) expect(detectFileType(bytes), type).toBe(type);
  });

  it('refuses what is none of them, whatever its name', () => {
    for (const sample of REFUSED) expect(detectFileType(sample.bytes), sample.why).toBeNull();
  });

  it('stores every accepted type, judged as it streams into R2, and the detected type is kept', async () => {
    const storage = await storageWith(`k1:${randomKey()}`);
    const { client, request, item } = await clientWithRequest();
    for (const [type, bytes] of Object.entries(ACCEPTED)) {
      // A misleading name: the type comes from the bytes.
      const stored = await storeFile(storage, { clientId: client.id, requestId: request.id, itemId: item.id, originalName: 'upload.bin', size: bytes.length, body: streamOf(bytes, 5), createdBy: { kind: 'client', id: client.id } });
      expect(stored, type).toMatchObject({ ok: true, file: { type: type as FileType } });
    }
    expect(await storedKeys()).toHaveLength(Object.keys(ACCEPTED).length);
  });

  it('refuses a renamed executable and every other refused sample, storing nothing', async () => {
    const storage = await storageWith(`k1:${randomKey()}`);
    const { client, request, item } = await clientWithRequest();
    for (const sample of REFUSED) {
      const stored = await storeFile(storage, { clientId: client.id, requestId: request.id, itemId: item.id, originalName: sample.name, size: sample.bytes.length, body: streamOf(sample.bytes, 3), createdBy: { kind: 'client', id: client.id } });
      expect(stored, sample.why).toEqual({ ok: false, reason: 'type-refused' });
    }
    expect(await storedKeys()).toEqual([]);
    expect((await env.DB.prepare('select count(*) as n from portal_files').first<{ n: number }>())?.n).toBe(0);
  });

  it('judges a ZIP by a central directory at the end of a file larger than the captured tail', async () => {
    const storage = await storageWith(`k1:${randomKey()}`);
    const { client } = await clientWithRequest();
    const big = 'x'.repeat(600 * 1024);
    const workbook = zip({ '[Content_Types].xml': '<Types/>', 'xl/workbook.xml': '<workbook/>', 'xl/media/filler.bin': big });
    const stored = await storeFile(storage, { clientId: client.id, originalName: 'a.xlsx', size: workbook.length, body: streamOf(workbook), createdBy: { kind: 'staff', id: 1 } });
    expect(stored).toMatchObject({ ok: true, file: { type: 'xlsx' } });
    // The same ZIP with its [Content_Types].xml renamed is refused once its end has passed: R2 keeps nothing of it.
    const other = zip({ '[Content_Types].txt': '<Types/>', 'xl/workbook.xml': '<workbook/>', 'xl/media/filler.bin': big });
    expect(await storeFile(storage, { clientId: client.id, originalName: 'b.xlsx', size: other.length, body: streamOf(other), createdBy: { kind: 'staff', id: 1 } })).toEqual({ ok: false, reason: 'type-refused' });
    expect(await storedKeys()).toEqual([stored.ok && stored.file.storageKey]);
  });

  it('ends on any bytes at all, crafted ZIP and OLE headers included, without throwing', () => {
    const pk = Uint8Array.from([0x50, 0x4b, 0x03, 0x04]);
    const cfb = Uint8Array.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    fc.assert(
      fc.property(fc.constantFrom(new Uint8Array(0), pk, cfb), fc.uint8Array({ maxLength: 4096 }), fc.uint8Array({ maxLength: 64 }), (prefix, body, end) => {
        // An end-of-directory record with random fields, as a crafted ZIP would carry.
        const eocd = Uint8Array.from([0x50, 0x4b, 0x05, 0x06, ...end]);
        const bytes = new Uint8Array(prefix.length + body.length + eocd.length);
        bytes.set(prefix);
        bytes.set(body, prefix.length);
        bytes.set(eocd, prefix.length + body.length);
        const type = detectFileType(bytes);
        expect(type === null || typeof type === 'string').toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
