// Minimal real files of every type the portal accepts (worker/services/portal/file-type.ts), and
// a few it must refuse, built here byte by byte so the tests carry no binary fixtures.
import { env } from 'cloudflare:test';
import { getDb } from '../../../worker/db/client';
import { portalClients, portalRequestItems, portalRequests } from '../../../worker/db/schema';
import { bytesToBase64 } from '#core/encoding';
import { parseFileKeys, type FileKeys, type PortalStorage } from '../../../worker/services/portal';

const text = (s: string) => new TextEncoder().encode(s);
const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
};

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** A ZIP (entries stored, not deflated) of the given files, as any unzip reads it. */
export function zip(files: Record<string, string>): Uint8Array {
  const locals: Uint8Array[] = [];
  const centrals: Uint8Array[] = [];
  let offset = 0;
  for (const [name, content] of Object.entries(files)) {
    const nameBytes = text(name);
    const data = text(content);
    const crc = crc32(data);
    const local = new Uint8Array(30 + nameBytes.length);
    const l = new DataView(local.buffer);
    l.setUint32(0, 0x04034b50, true);
    l.setUint16(4, 20, true);
    l.setUint32(14, crc, true);
    l.setUint32(18, data.length, true);
    l.setUint32(22, data.length, true);
    l.setUint16(26, nameBytes.length, true);
    local.set(nameBytes, 30);
    const central = new Uint8Array(46 + nameBytes.length);
    const c = new DataView(central.buffer);
    c.setUint32(0, 0x02014b50, true);
    c.setUint16(4, 20, true);
    c.setUint16(6, 20, true);
    c.setUint32(16, crc, true);
    c.setUint32(20, data.length, true);
    c.setUint32(24, data.length, true);
    c.setUint16(28, nameBytes.length, true);
    c.setUint32(42, offset, true);
    central.set(nameBytes, 46);
    locals.push(local, data);
    centrals.push(central);
    offset += local.length + data.length;
  }
  const directory = concat(...centrals);
  const end = new Uint8Array(22);
  const e = new DataView(end.buffer);
  e.setUint32(0, 0x06054b50, true);
  e.setUint16(8, centrals.length, true);
  e.setUint16(10, centrals.length, true);
  e.setUint32(12, directory.length, true);
  e.setUint32(16, offset, true);
  return concat(...locals, directory, end);
}

const CONTENT_TYPES = '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>';

/** An OLE compound file (512-byte sectors) whose first directory sector names the given streams. */
export function ole(streams: string[]): Uint8Array {
  const file = new Uint8Array(512 * 2);
  const v = new DataView(file.buffer);
  file.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
  v.setUint16(0x18, 0x3e, true);
  v.setUint16(0x1a, 3, true);
  v.setUint16(0x1c, 0xfffe, true);
  v.setUint16(0x1e, 9, true);
  v.setUint16(0x20, 6, true);
  v.setUint32(0x30, 0, true); // the directory starts at sector 0, the file's second 512 bytes
  const entry = (at: number, name: string, type: number) => {
    for (let i = 0; i < name.length; i++) v.setUint16(512 + at + i * 2, name.charCodeAt(i), true);
    v.setUint16(512 + at + 0x40, (name.length + 1) * 2, true);
    file[512 + at + 0x42] = type;
  };
  entry(0, 'Root Entry', 5);
  streams.slice(0, 3).forEach((name, i) => entry(128 * (i + 1), name, 2));
  return file;
}

/** One accepted sample of each type, by the type the detector must name. */
export const ACCEPTED = {
  pdf: text('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n'),
  // A 1x1 PNG.
  png: Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='), (c) => c.charCodeAt(0)),
  // SOI, a JFIF APP0 segment, EOI.
  jpeg: Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0xff, 0xd9]),
  // An iPhone photo's ftyp box (major brand heic), then the start of its meta box.
  heic: concat(Uint8Array.from([0, 0, 0, 0x18]), text('ftypheic'), Uint8Array.from([0, 0, 0, 0]), text('mif1heic'), Uint8Array.from([0, 0, 0, 0x0c]), text('meta'), new Uint8Array(4)),
  xlsx: zip({ '[Content_Types].xml': CONTENT_TYPES, '_rels/.rels': '<Relationships/>', 'xl/workbook.xml': '<workbook/>', 'xl/worksheets/sheet1.xml': '<worksheet/>' }),
  docx: zip({ '[Content_Types].xml': CONTENT_TYPES, '_rels/.rels': '<Relationships/>', 'word/document.xml': '<w:document/>' }),
  xls: ole(['Workbook', '\u0005SummaryInformation']),
  csv: text('\ufeffForm,Payer,Amount\nW-2,Acme Corp,"52,000.00"\n1099-INT,First Bank,12.34\n'),
} as const;

/** Refused whatever their name: each with the name a sender would give it. */
export const REFUSED: { why: string; name: string; bytes: Uint8Array }[] = [
  { why: 'a renamed Windows executable', name: 'W-2 2026.pdf', bytes: concat(text('MZ'), Uint8Array.from([0x90, 0, 3, 0, 0, 0, 4, 0]), new Uint8Array(64), text('This program cannot be run in DOS mode.')) },
  { why: 'a ZIP of other things', name: 'returns.xlsx', bytes: zip({ 'setup.exe': 'MZ...', 'readme.txt': 'hello' }) },
  { why: 'a macro-enabled workbook', name: 'book.xlsx', bytes: zip({ '[Content_Types].xml': CONTENT_TYPES, 'xl/workbook.xml': '<workbook/>', 'xl/vbaProject.bin': 'macro' }) },
  { why: 'an OLE file that is no workbook (an installer)', name: 'budget.xls', bytes: ole(['\u0005SummaryInformation', 'Binary.Setup']) },
  { why: 'an HTML page', name: 'statement.csv', bytes: text('<!DOCTYPE html><html><body><script>alert(1)</script></body></html>') },
  { why: 'an SVG image', name: 'scan.png', bytes: text('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>') },
  { why: 'text with markup after the first line', name: 'data.csv', bytes: text('a,b\n1,<script>alert(1)</script>\n') },
  { why: 'binary with NUL bytes', name: 'data.csv', bytes: Uint8Array.from([0x61, 0x2c, 0x62, 0x0a, 0x00, 0x01, 0x02]) },
  { why: 'an AVIF image (an ISO file of another brand)', name: 'photo.heic', bytes: concat(Uint8Array.from([0, 0, 0, 0x18]), text('ftypavif'), Uint8Array.from([0, 0, 0, 0]), text('mif1avif')) },
];

/** A base64 key of 32 random bytes, and the keys that parse from a PORTAL_FILE_KEYS value. */
export const randomKey = () => bytesToBase64(crypto.getRandomValues(new Uint8Array(32)));
export async function keysOf(secret: string): Promise<FileKeys> {
  const parsed = await parseFileKeys(secret);
  if (!parsed.ok) throw new Error(parsed.problem);
  return parsed.keys;
}
export async function storageWith(secret: string): Promise<PortalStorage> {
  return { db: getDb(env.DB), bucket: env.DOCUMENTS, keys: await keysOf(secret) };
}

/** A body that streams `bytes` in pieces of `piece` bytes, as an upload arrives. */
export function streamOf(bytes: Uint8Array, piece = 64 * 1024 + 7): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, at + piece));
      at += piece;
    },
  });
}

/** A client with one open request of one item. */
export async function clientWithRequest(email = 'client@example.com') {
  const db = getDb(env.DB);
  const [client] = await db.insert(portalClients).values({ name: 'Pat Client', email, createdBy: 1 }).returning();
  const [request] = await db.insert(portalRequests).values({ clientId: client.id, title: '2026 tax return', createdBy: 1 }).returning();
  const [item] = await db.insert(portalRequestItems).values({ requestId: request.id, label: 'W-2 from each employer' }).returning();
  return { client, request, item };
}

/** Every object the portal holds in the bucket. */
export async function storedKeys(): Promise<string[]> {
  const keys: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await env.DOCUMENTS.list({ prefix: 'portal/', cursor });
    keys.push(...page.objects.map((o) => o.key));
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return keys;
}

export async function emptyBucket(): Promise<void> {
  const keys = await storedKeys();
  if (keys.length > 0) await env.DOCUMENTS.delete(keys);
}
