// The rich text of the content document (core/content/schema.ts): the few paragraphs a page shows with
// formatting (the privacy policy, the About story, the leader's biography). One paragraph's inline
// HTML from a small subset: <strong>, <em>, <br> and <a href> with an http(s), mailto: or tel: link.
//
// Why not the newsletter sanitiser (worker/services/newsletter/sanitize-html.ts): it allows whole
// e-mail layouts (tables, styles, images) and drops what it does not know; here the subset is four
// tags and anything else stays visible as text, so an admin who pastes a <script> sees it on the
// page as written, never run. Pure string code: the schema runs it on save (worker and browser)
// and the pages run it again on render.

import { decodeEntities, escapeHtml, KEEP_AS_WRITTEN } from '../html';

const URL_SCHEMES = ['http:', 'https:', 'mailto:', 'tel:'];

/** Plain text as rich text that shows exactly that text. */
export const textToRichText = (text: string) => escapeHtml(text, { quotes: false });

/** True for an absolute http(s), mailto: or tel: URL (after the decoding and whitespace a browser ignores). */
export function isSafeLink(raw: string): boolean {
  const url = decodeEntities(raw).replace(/[\u0000-\u0020\u007f-\u009f\u200b-\u200f\u2028\u2029\ufeff]/g, '');
  const scheme = /^([a-z][a-z0-9+.-]*:)/i.exec(url)?.[1].toLowerCase();
  if (!scheme || !URL_SCHEMES.includes(scheme)) return false;
  return scheme === 'http:' || scheme === 'https:' ? /^https?:\/\/[^/?#\s]+/i.test(url) : url.length > scheme.length;
}

// A tag of the subset, with its attributes (only <a>'s href is read).
const TAG = /<(\/?)(strong|em|br|a)(\s[^<>]*)?\/?>/gi;
const HREF = /(?:^|\s)href\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))/i;

/**
 * The rich text reduced to the subset: allowed tags rewritten from scratch (lowercase, no attribute
 * but a safe href), everything else escaped as text, unclosed tags closed. Idempotent:
 * sanitizeRichText(sanitizeRichText(x)) === sanitizeRichText(x), so a stored value parses unchanged.
 */
export function sanitizeRichText(input: string): string {
  const out: string[] = [];
  const open: string[] = [];
  let at = 0;
  for (const match of input.replace(/\u0000/g, '').matchAll(TAG)) {
    out.push(escapeHtml(match.input.slice(at, match.index), KEEP_AS_WRITTEN));
    at = match.index + match[0].length;
    const closing = match[1] === '/';
    const name = match[2].toLowerCase();
    if (name === 'br') {
      if (!closing) out.push('<br>');
      continue;
    }
    if (closing) {
      // Closes what it ends (and anything opened inside it); a close without its open is dropped.
      const depth = open.lastIndexOf(name);
      if (depth >= 0) while (open.length > depth) out.push(`</${open.pop()}>`);
      continue;
    }
    if (name === 'a') {
      const href = HREF.exec(match[3] ?? '');
      const url = href ? decodeEntities(href[1] ?? href[2] ?? href[3]) : '';
      // A link without a safe target is no link: its text stays, the tag goes.
      if (!isSafeLink(url) || open.includes('a')) continue;
      out.push(`<a href="${escapeHtml(url)}">`);
    } else {
      out.push(`<${name}>`);
    }
    open.push(name);
  }
  out.push(escapeHtml(input.replace(/\u0000/g, '').slice(at), KEEP_AS_WRITTEN));
  while (open.length) out.push(`</${open.pop()}>`);
  return out.join('');
}

/** The text a reader sees, without the markup (for the chat's knowledge, e-mails and meta descriptions). */
export function richTextToPlainText(richText: string): string {
  return decodeEntities(sanitizeRichText(richText).replace(/<br>/g, '\n').replace(/<[^>]*>/g, ''));
}
