// What a portal file is, judged by its bytes, never its name or the type its sender claims
// (docs/decisions/0022-client-portal-files.md). Pure and bounded: it reads the first HEAD_BYTES, and
// for the two container formats one more bounded piece the store captures as the bytes stream by
// (worker/services/portal/files.ts): a ZIP's central directory from the last TAIL_BYTES, an OLE
// compound file's first directory sector. Every loop is bounded by the buffer it walks.

/** The types the portal accepts. */
export const FILE_TYPES = ['pdf', 'jpeg', 'png', 'heic', 'xlsx', 'docx', 'xls', 'csv'] as const;
export type FileType = (typeof FILE_TYPES)[number];

/** The Content-Type a download of each type is served with. */
export const MEDIA_TYPES: Record<FileType, string> = {
  pdf: 'application/pdf',
  jpeg: 'image/jpeg',
  png: 'image/png',
  heic: 'image/heic',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel',
  csv: 'text/csv',
};

/** The bytes judged from the start of a file. */
export const HEAD_BYTES = 8 * 1024;
/** The end of a file kept for a ZIP's central directory (and its end record, within the last 64 KiB). */
export const TAIL_BYTES = 256 * 1024;
/** An OLE compound file's directory sectors are 512 or 4096 bytes. */
const MAX_OLE_SECTOR = 4096;
/** At most this many entries in a ZIP's central directory are read (an Office file has dozens). */
const MAX_ZIP_ENTRIES = 4096;

/** The first verdict, from the head: a type, a refusal, or which other bytes decide. */
export type HeadVerdict =
  | { kind: 'type'; type: FileType }
  | { kind: 'refused' }
  | { kind: 'zip' }
  | { kind: 'ole'; offset: number; length: number };

const ascii = (bytes: Uint8Array, at: number, text: string) => {
  if (at + text.length > bytes.length) return false;
  for (let i = 0; i < text.length; i++) if (bytes[at + i] !== text.charCodeAt(i)) return false;
  return true;
};
const startsWith = (bytes: Uint8Array, signature: readonly number[]) => signature.every((b, i) => bytes[i] === b);
const dataView = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff];
const OLE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const ZIP_LOCAL = [0x50, 0x4b, 0x03, 0x04];
const HEIC_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx']);
const IMAGE_CONTAINER_BRANDS = new Set(['mif1', 'msf1']);

/** An ISO base media file whose brands say HEIF with HEVC (an iPhone's photo). */
function isHeic(head: Uint8Array): boolean {
  if (head.length < 16 || !ascii(head, 4, 'ftyp')) return false;
  const boxSize = dataView(head).getUint32(0);
  if (boxSize < 16 || boxSize > 512 || boxSize % 4 !== 0 || boxSize > head.length) return false;
  const brand = (at: number) => String.fromCharCode(...head.subarray(at, at + 4));
  const major = brand(8);
  if (HEIC_BRANDS.has(major)) return true;
  if (!IMAGE_CONTAINER_BRANDS.has(major)) return false;
  for (let at = 16; at + 4 <= boxSize; at += 4) if (HEIC_BRANDS.has(brand(at))) return true;
  return false;
}

/** The first directory sector of an OLE compound file (MS-CFB 2.2), or null when the header is not sane. */
function oleDirectory(head: Uint8Array): { offset: number; length: number } | null {
  if (head.length < 512) return null;
  const header = dataView(head);
  const shift = header.getUint16(0x1e, true);
  if (shift !== 9 && shift !== 12) return null;
  const sector = 1 << shift;
  const first = header.getUint32(0x30, true);
  // 0xFFFFFFFA and above are markers (end of chain, free...), not sectors.
  if (first >= 0xfffffffa) return null;
  return { offset: (first + 1) * sector, length: Math.min(sector, MAX_OLE_SECTOR) };
}

/** The first verdict on a file from its first HEAD_BYTES (fewer if the file is shorter); `size` is the whole file's. */
export function judgeHead(head: Uint8Array, size: number): HeadVerdict {
  if (ascii(head, 0, '%PDF-')) return { kind: 'type', type: 'pdf' };
  if (startsWith(head, PNG)) return { kind: 'type', type: 'png' };
  if (startsWith(head, JPEG)) return { kind: 'type', type: 'jpeg' };
  if (isHeic(head)) return { kind: 'type', type: 'heic' };
  if (startsWith(head, ZIP_LOCAL)) return { kind: 'zip' };
  if (startsWith(head, OLE)) {
    const directory = oleDirectory(head);
    return directory && directory.offset + directory.length <= size ? { kind: 'ole', ...directory } : { kind: 'refused' };
  }
  return isCsv(head, size > head.length) ? { kind: 'type', type: 'csv' } : { kind: 'refused' };
}

/**
 * An Excel workbook: an OLE directory entry named "Workbook" (Excel 97 and later) or "Book"
 * (Excel 5). Entries are 128 bytes: the name in UTF-16LE, then its length in bytes (with the NUL)
 * at 0x40 and its type at 0x42 (2: a stream).
 */
export function judgeOleDirectory(sector: Uint8Array): FileType | null {
  const entries = dataView(sector);
  for (let at = 0; at + 128 <= sector.length; at += 128) {
    const nameBytes = entries.getUint16(at + 0x40, true);
    if (nameBytes < 2 || nameBytes > 64 || sector[at + 0x42] !== 2) continue;
    let name = '';
    for (let i = 0; i + 2 < nameBytes; i += 2) name += String.fromCharCode(entries.getUint16(at + i, true));
    if (name === 'Workbook' || name === 'Book') return 'xls';
  }
  return null;
}

/**
 * An Office Open XML document: the names in a ZIP's central directory, read from the file's last
 * bytes (`tail`, the last TAIL_BYTES or the whole file). [Content_Types].xml with xl/workbook.xml
 * is a workbook, with word/document.xml a document; a macro project (vbaProject.bin: .xlsm, .docm
 * renamed) or anything else is refused, as is a ZIP64 or a directory that is not wholly in `tail`.
 */
export function judgeZipTail(tail: Uint8Array, size: number): FileType | null {
  const bytes = dataView(tail);
  const tailStart = size - tail.length;
  // The end of central directory record: 22 bytes and a comment of at most 65,535.
  let end = -1;
  for (let at = tail.length - 22; at >= 0 && at >= tail.length - 22 - 0xffff; at--) {
    if (bytes.getUint32(at, true) === 0x06054b50) {
      end = at;
      break;
    }
  }
  if (end < 0) return null;
  const count = bytes.getUint16(end + 10, true);
  const directorySize = bytes.getUint32(end + 12, true);
  const directoryOffset = bytes.getUint32(end + 16, true) - tailStart;
  if (count === 0 || count > MAX_ZIP_ENTRIES || directoryOffset < 0 || directoryOffset + directorySize > end) return null;
  const names = new Set<string>();
  const decoder = new TextDecoder();
  let at = directoryOffset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > end || bytes.getUint32(at, true) !== 0x02014b50) return null;
    const nameLength = bytes.getUint16(at + 28, true);
    const next = at + 46 + nameLength + bytes.getUint16(at + 30, true) + bytes.getUint16(at + 32, true);
    if (next > end) return null;
    names.add(decoder.decode(tail.subarray(at + 46, at + 46 + nameLength)));
    at = next;
  }
  if (!names.has('[Content_Types].xml')) return null;
  if ([...names].some((name) => /(^|\/)vbaProject\.bin$/i.test(name))) return null;
  if (names.has('xl/workbook.xml')) return 'xlsx';
  if (names.has('word/document.xml')) return 'docx';
  return null;
}

/**
 * Comma-separated text: UTF-8 (a BOM allowed), no NUL or other control character but tab, CR and
 * LF, not markup (HTML, SVG, XML), and in lines: a head that is only part of the file must hold at
 * least one line break. `partial`: the head is not the whole file (its last character may be cut).
 */
export function isCsv(head: Uint8Array, partial: boolean): boolean {
  if (head.length === 0) return false;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(partial ? trimCutCharacter(head) : head);
  } catch {
    return false;
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  // C0 controls but tab, LF and CR; DEL; the C1 controls.
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/.test(text)) return false;
  if (/^\s*</.test(text) || /<\s*(script|html|svg|\?xml|!doctype|iframe|body)\b/i.test(text)) return false;
  if (partial && !/[\r\n]/.test(text)) return false;
  return text.trim().length > 0;
}

/** A head cut inside a UTF-8 character: without that character's first bytes. */
function trimCutCharacter(head: Uint8Array): Uint8Array {
  for (let back = 1; back <= 3 && back <= head.length; back++) {
    const byte = head[head.length - back];
    if ((byte & 0xc0) !== 0x80) {
      // A lead byte: keep it only if its character is complete.
      const needs = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
      return needs > back ? head.subarray(0, head.length - back) : head;
    }
  }
  return head;
}

/** The whole judgement over a file held in memory (small files, tests): the head, then the piece it asks for. */
export function detectFileType(bytes: Uint8Array): FileType | null {
  const verdict = judgeHead(bytes.subarray(0, HEAD_BYTES), bytes.length);
  switch (verdict.kind) {
    case 'type':
      return verdict.type;
    case 'refused':
      return null;
    case 'zip':
      return judgeZipTail(bytes.subarray(Math.max(0, bytes.length - TAIL_BYTES)), bytes.length);
    case 'ole':
      return judgeOleDirectory(bytes.subarray(verdict.offset, verdict.offset + verdict.length));
  }
}
