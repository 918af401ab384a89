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
