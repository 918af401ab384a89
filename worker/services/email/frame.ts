import { firmAddressLine, type FirmFacts } from '#core/content/firm-facts';
import { escapeHtml } from '#core/html';

// The one frame every e-mail the firm writes to a person stands in (docs/architecture.md, "E-mail"):
// a title, paragraphs, a table of details, the domain's own blocks (an appointment's calendar and
// self-service links, say) and the firm's footer. Each domain writes its own messages
// (worker/services/<domain>/emails.ts) and hands them to the floor's enqueue; text passed in is
// escaped here, the blocks' HTML is the domain's and must be escaped by it.

/** Label and value pairs: the details table of the HTML part, "Label: value" lines in the text part. */
export type DetailRows = [string, string][];

/** A block after the details: its HTML (escaped by whoever wrote it) and its plain-text twin. */
export interface FrameBlock {
  html: string;
  text: string;
}

export interface Framed {
  title: string;
  paragraphs: string[];
  rows?: DetailRows;
  blocks?: FrameBlock[];
}

/** A header field (subject, name) on one line, at most `max` characters. */
export const oneLine = (value: string, max = 120) => value.replace(/[\r\n\t]+/g, ' ').replace(/\s{2,}/g, ' ').trim().slice(0, max);

export const textRows = (rows: DetailRows) => rows.map(([k, v]) => `${k}: ${v}`).join('\n');

/** The firm's name, address, phone and e-mail under a message's text part. */
export const signature = (firm: FirmFacts) => `${firm.name}\n${firmAddressLine(firm)}\n${firm.contact.phone} · ${firm.contact.email}`;

/** The HTML part: the title, the paragraphs, the details, the blocks and the firm's footer. */
export function framedHtml(firm: FirmFacts, { title, paragraphs, rows = [], blocks = [] }: Framed): string {
  const table = rows.length
    ? `<table cellpadding="6" style="border-collapse:collapse;margin:16px 0">${rows
        .map(([k, v]) => `<tr><th align="left" style="color:#475569;vertical-align:top">${escapeHtml(k)}</th><td style="white-space:pre-wrap">${escapeHtml(v)}</td></tr>`)
        .join('')}</table>`
    : '';
  return `<!doctype html><html><body style="font-family:Arial,Helvetica,sans-serif;color:#0f172a;line-height:1.5">
<h1 style="font-size:20px;color:#0f2a4a">${escapeHtml(title)}</h1>
${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
${table}
${blocks.map((block) => block.html).join('\n')}
<p style="color:#475569;font-size:13px">${escapeHtml(firm.name)} &middot; ${escapeHtml(firmAddressLine(firm))} &middot; ${escapeHtml(firm.contact.phone)}</p>
</body></html>`;
}

/** The text part: the paragraphs, the details, the blocks and the signature. */
export function framedText(firm: FirmFacts, { paragraphs, rows = [], blocks = [] }: Framed): string {
  const parts = [paragraphs.join('\n\n'), rows.length ? textRows(rows) : '', ...blocks.map((block) => block.text)].filter(Boolean);
  return `${parts.join('\n\n')}\n\n${signature(firm)}`;
}
