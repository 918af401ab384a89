// The one HTML escape of the project (worker pages and e-mails, the SPA's prerendered head tags,
// the rich text of the content document, the newsletter's sanitiser): text made safe to put inside
// HTML, in an element or a quoted attribute. Pure string code, for workerd, the browser and Node.

/** An ampersand that does not begin a character reference (`&amp;`, `&#39;`, `&#x2F;`). */
const LONE_AMPERSAND = /&(?!(#x[0-9a-f]+|#\d+|[a-z][a-z0-9]*);)/gi;

export interface EscapeOptions {
  /**
   * Escape `"` and `'` too (default): needed inside an attribute value. Element text needs only
   * `& < >`, and text that must stay byte for byte what it was (stored rich text, a sanitised
   * newsletter) keeps its quotes with `quotes: false`.
   */
  quotes?: boolean;
  /** Keep the character references already in the text (HTML being rewritten), escaping only a lone `&`. */
  keepEntities?: boolean;
}

/** `text` with `& < >` (and, by default, `" '`) escaped: nothing in it can open a tag or end an attribute. */
export function escapeHtml(text: string, { quotes = true, keepEntities = false }: EscapeOptions = {}): string {
  const escaped = text.replace(keepEntities ? LONE_AMPERSAND : /&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return quotes ? escaped.replace(/"/g, '&quot;').replace(/'/g, '&#39;') : escaped;
}

/** HTML being rewritten (a sanitiser's text between tags): as written, its character references and quotes kept, but nothing in it can open or close a tag. */
export const KEEP_AS_WRITTEN: EscapeOptions = { quotes: false, keepEntities: true };

// Character references as a browser reads them, to see what a link really is (its scheme) and the
// text a reader sees. In element text a reference ends with `;` and the few names escapeHtml and
// editors write are known. Inside an attribute value (the newsletter's sanitiser checks hrefs and
// styles) the `;` may be left out and `&colon;`, `&tab;`, `&newline;` count too, as browsers
// decode them there: "java&tab;script&colon;" is a javascript: URL.
const TEXT_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };
const ATTRIBUTE_ENTITIES: Record<string, string> = { ...TEXT_ENTITIES, colon: ':', tab: '\t', newline: '\n' };
const TEXT_REFERENCE = /&(#x[0-9a-f]+|#\d+|[a-z]+);/gi;
const ATTRIBUTE_REFERENCE = /&(#x[0-9a-f]+|#\d+|[a-z]+);?/gi;

/** `value` with its character references decoded (a number out of range, or a surrogate, as U+FFFD; an unknown name kept). */
export function decodeEntities(value: string, { inAttribute = false }: { inAttribute?: boolean } = {}): string {
  const names = inAttribute ? ATTRIBUTE_ENTITIES : TEXT_ENTITIES;
  return value.replace(inAttribute ? ATTRIBUTE_REFERENCE : TEXT_REFERENCE, (match, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : '\ufffd';
    }
    return names[body.toLowerCase()] ?? match;
  });
}
