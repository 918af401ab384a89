// Local development's mailbox (docs/decisions/0020-no-bearer-secret-in-the-e-mail-log.md): with no
// MailChannels key, the worker hands every message to this sink on a loopback port
// (worker/services/email/local-mailbox.ts, LOCAL_MAILBOX_URL) as the JSON MailChannels' /send would
// receive, and the sink writes it as one .eml file (full MIME: headers, the text and HTML parts,
// the attachments such as the .ics invite) into the local state directory's mail/ folder, which any
// mail client opens. The e-mail log keeps the same messages without their links' secrets, so this
// folder is where a developer follows an invitation, confirmation or appointment link.
//
// `npm start`, `npm run dev` and the browser tests' stacks run it (scripts/lib/local-server.ts
// startDevServer's `mailDir`); readMailbox reads the folder back (the tests follow links with it).
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

/** The mail/ folder under the local state directory: $LOCAL_STATE_DIR/mail, else the checkout's .wrangler/mail. */
export function localMailDir(projectRoot: string, env: Record<string, string | undefined> = process.env): string {
  return env.LOCAL_STATE_DIR ? join(env.LOCAL_STATE_DIR, 'mail') : join(projectRoot, '.wrangler', 'mail');
}

/** One message as the worker hands it over: MailChannels' /send body (worker/services/email/mailchannels.ts mailChannelsPayload). */
export interface MailPayload {
  personalizations: { to: { email: string; name?: string }[] }[];
  from: { email: string; name?: string };
  reply_to?: { email: string };
  subject: string;
  content: { type: string; value: string }[];
  headers?: Record<string, string>;
  attachments?: { type: string; filename: string; content: string }[];
}

const CRLF = '\r\n';
const MAX_BODY_BYTES = 25 * 1024 * 1024;

/** A header value: as it is when plain ASCII, else an RFC 2047 encoded word. */
function headerText(value: string): string {
  return /^[\x20-\x7e]*$/.test(value) ? value : `=?UTF-8?B?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

/** "Name" <address>, or the bare address. */
function mailbox(address: { email: string; name?: string }): string {
  if (!address.name) return address.email;
  const name = /^[\x20-\x7e]*$/.test(address.name) ? `"${address.name.replace(/(["\\])/g, '\\$1')}"` : headerText(address.name);
  return `${name} <${address.email}>`;
}

/** Quoted-printable (RFC 2045), lines of at most 76 characters. */
function quotedPrintable(text: string): string {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  return lines
    .map((line) => {
      let encoded = '';
      for (const byte of Buffer.from(line, 'utf8')) {
        const char = String.fromCharCode(byte);
        encoded += (byte >= 33 && byte <= 126 && char !== '=') || byte === 32 ? char : `=${byte.toString(16).toUpperCase().padStart(2, '0')}`;
      }
      // A space at the end of a line would be lost in transit.
      encoded = encoded.replace(/ $/, '=20');
      const out: string[] = [];
      while (encoded.length > 76) {
        let cut = 75;
        // Never split an =XX escape.
        const escape = encoded.lastIndexOf('=', cut);
        if (escape > cut - 3) cut = escape;
        out.push(`${encoded.slice(0, cut)}=`);
        encoded = encoded.slice(cut);
      }
      out.push(encoded);
      return out.join(CRLF);
    })
    .join(CRLF);
}

/** A text part: 8bit when every line fits SMTP's 998 octets (readable as it is), else quoted-printable. */
function textPart(type: string, value: string): string {
  const lines = value.replace(/\r\n/g, '\n').split('\n');
  const fits = lines.every((line) => Buffer.byteLength(line, 'utf8') <= 998);
  const body = fits ? lines.join(CRLF) : quotedPrintable(value);
  return [`Content-Type: ${type}; charset=utf-8`, `Content-Transfer-Encoding: ${fits ? '8bit' : 'quoted-printable'}`, '', body].join(CRLF);
}

const wrap76 = (base64: string) => base64.replace(/(.{76})/g, `$1${CRLF}`).replace(/\r\n$/, '');

function attachmentPart(a: { type: string; filename: string; content: string }): string {
  const filename = a.filename.replace(/["\\\r\n]/g, '_');
  return [`Content-Type: ${a.type}; name="${filename}"`, 'Content-Transfer-Encoding: base64', `Content-Disposition: attachment; filename="${filename}"`, '', wrap76(a.content.replace(/\s+/g, ''))].join(CRLF);
}

const boundary = (label: string) => `=_${label}_${randomBytes(12).toString('hex')}`;

function multipart(subtype: string, parts: string[]): string {
  const b = boundary(subtype);
  return [`Content-Type: multipart/${subtype}; boundary="${b}"`, '', ...parts.flatMap((part) => [`--${b}`, part]), `--${b}--`, ''].join(CRLF);
}

/** The message as one RFC 5322 / MIME document, as the provider would deliver it. */
export function toEml(payload: MailPayload, date = new Date()): string {
  const to = payload.personalizations.flatMap((p) => p.to).map(mailbox).join(', ');
  const extra = Object.entries(payload.headers ?? {});
  const hasMessageId = extra.some(([name]) => name.toLowerCase() === 'message-id');
  const headers = [
    `From: ${mailbox(payload.from)}`,
    `To: ${to}`,
    ...(payload.reply_to ? [`Reply-To: ${payload.reply_to.email}`] : []),
    `Subject: ${headerText(payload.subject)}`,
    `Date: ${date.toUTCString().replace(/GMT$/, '+0000')}`,
    ...(hasMessageId ? [] : [`Message-ID: <${randomBytes(16).toString('hex')}@local.mailbox>`]),
    ...extra.map(([name, value]) => `${name}: ${headerText(value)}`),
    'MIME-Version: 1.0',
  ];
  const texts = payload.content.map((c) => textPart(c.type, c.value));
  const body = texts.length === 1 ? texts[0] : multipart('alternative', texts);
  const whole = payload.attachments?.length ? multipart('mixed', [body, ...payload.attachments.map(attachmentPart)]) : body;
  return `${headers.join(CRLF)}${CRLF}${whole}`;
}

/** The mail sink: POST /send?kind=... with a MailPayload writes one .eml file into `dir`. */
export async function startLocalMailbox(dir: string): Promise<{ url: string; dir: string; stop: () => Promise<void> }> {
  mkdirSync(dir, { recursive: true });
  let sequence = 0;
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://mailbox');
    if (req.method !== 'POST' || url.pathname !== '/send') {
      res.writeHead(404).end();
      return;
    }
    readBody(req)
      .then((body) => {
        const payload = JSON.parse(body) as MailPayload;
        const kind = (url.searchParams.get('kind') ?? 'mail').replace(/[^a-z0-9-]/gi, '_').slice(0, 40);
        const now = new Date();
        const name = `${now.toISOString().replace(/[:.]/g, '-')}-${String(++sequence).padStart(4, '0')}-${kind}.eml`;
        // Written whole, then renamed: a reader never sees half a message.
        const partial = join(dir, `.${name}.partial`);
        writeFileSync(partial, toEml(payload, now));
        renameSync(partial, join(dir, name));
        res.writeHead(202, { 'content-type': 'application/json' }).end(JSON.stringify({ request_id: name }));
      })
      .catch((error: unknown) => {
        res.writeHead(400, { 'content-type': 'text/plain' }).end(String((error as Error).message ?? error));
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    dir,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Error('message too large'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** One .eml file read back: its kind (from the file name), header fields, text and HTML, and attachments. */
export interface MailboxMessage {
  file: string;
  kind: string;
  /** Header fields by lower-case name, unfolded, encoded words decoded. */
  headers: Record<string, string>;
  /** The address(es) of To, without names. */
  to: string[];
  subject: string;
  text: string;
  html: string | undefined;
  attachments: { filename: string; contentType: string; content: Buffer }[];
}

function decodeWords(value: string): string {
  return value.replace(/=\?UTF-8\?B\?([^?]*)\?=/gi, (_, b64: string) => Buffer.from(b64, 'base64').toString('utf8'));
}

function parseHeaders(block: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of block.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const at = line.indexOf(':');
    if (at > 0) headers[line.slice(0, at).trim().toLowerCase()] = decodeWords(line.slice(at + 1).trim());
  }
  return headers;
}

function decodeBody(body: string, encoding: string | undefined): Buffer {
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64');
  if (encoding === 'quoted-printable') {
    const joined = body.replace(/=\r\n/g, '');
    const bytes: number[] = [];
    for (let i = 0; i < joined.length; i++) {
      if (joined[i] === '=' && /^[0-9A-F]{2}$/i.test(joined.slice(i + 1, i + 3))) {
        bytes.push(parseInt(joined.slice(i + 1, i + 3), 16));
        i += 2;
      } else bytes.push(...Buffer.from(joined[i], 'utf8'));
    }
    return Buffer.from(bytes);
  }
  return Buffer.from(body, 'utf8');
}

type Leaf = { headers: Record<string, string>; body: Buffer };

function leaves(entity: string): Leaf[] {
  const split = entity.indexOf('\r\n\r\n');
  const headers = parseHeaders(split === -1 ? entity : entity.slice(0, split));
  const body = split === -1 ? '' : entity.slice(split + 4);
  const type = headers['content-type'] ?? 'text/plain';
  const b = /boundary="([^"]+)"/.exec(type)?.[1];
  if (type.startsWith('multipart/') && b) {
    const parts = body.split(`--${b}`).slice(1);
    return parts.filter((part) => !part.startsWith('--')).flatMap((part) => leaves(part.replace(/^\r\n/, '').replace(/\r\n$/, '')));
  }
  return [{ headers, body: decodeBody(body, headers['content-transfer-encoding']) }];
}

/** Parses one .eml file as startLocalMailbox writes it. */
export function parseEml(file: string, eml: string): MailboxMessage {
  const split = eml.indexOf('\r\n\r\n');
  const headers = parseHeaders(eml.slice(0, split));
  const parts = leaves(eml);
  const isAttachment = (leaf: Leaf) => (leaf.headers['content-disposition'] ?? '').startsWith('attachment');
  const part = (type: string) => parts.find((leaf) => !isAttachment(leaf) && (leaf.headers['content-type'] ?? 'text/plain').startsWith(type));
  const kind = /-\d{4}-(.+)\.eml$/.exec(file)?.[1] ?? 'mail';
  return {
    file,
    kind,
    headers,
    to: (headers.to ?? '').split(',').map((a) => (/<([^>]+)>/.exec(a)?.[1] ?? a).trim()).filter(Boolean),
    subject: headers.subject ?? '',
    text: (part('text/plain')?.body.toString('utf8') ?? '').replace(/\r\n/g, '\n'),
    html: part('text/html')?.body.toString('utf8').replace(/\r\n/g, '\n'),
    attachments: parts.filter(isAttachment).map((leaf) => ({
      filename: /filename="([^"]*)"/.exec(leaf.headers['content-disposition'] ?? '')?.[1] ?? '',
      contentType: leaf.headers['content-type'] ?? '',
      content: leaf.body,
    })),
  };
}

/** Every message in the mailbox folder, oldest first (the file names sort by time); none when it does not exist yet. */
export function readMailbox(dir: string): MailboxMessage[] {
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.eml') && !f.startsWith('.'));
  } catch {
    return [];
  }
  return files.sort().map((file) => parseEml(file, readFileSync(join(dir, file), 'utf8')));
}
