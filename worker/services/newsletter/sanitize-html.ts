/**
 * An allowlist HTML sanitizer for newsletter bodies (admin-written or AI-written HTML).
 *
 * Why our own and not a library: DOMPurify and sanitize-html need a DOM or Node's htmlparser2, and
 * workerd offers neither; HTMLRewriter rewrites in place, so anything it does not understand passes
 * through verbatim. This one never passes input through: it tokenises the input and writes a new
 * document from scratch, so the output can only contain
 *   - elements from ALLOWED_TAGS (every `<` in the output is one we wrote),
 *   - attributes from the per-tag allowlist, always double-quoted and entity-escaped,
 *   - URLs whose decoded, whitespace-stripped scheme is http(s), mailto or tel (href) or http(s) (src),
 *   - inline styles limited to layout/typography properties with no url(), expression() or escapes,
 *   - text in which `<` and `>` are escaped.
 * Script-like elements (script, style, iframe, svg, math, template, ...) are dropped with their
 * content; other unknown elements are dropped and their text kept. Comments, doctypes, processing
 * instructions and CDATA are dropped. Open tags are closed at the end, so the output nests.
 * Pure string code: runs the same in workerd, Node and the browser (tested against an XSS corpus).
 */

import { decodeEntities, escapeHtml, KEEP_AS_WRITTEN } from '#core/html';

const ALLOWED_TAGS = new Set([
  'a', 'b', 'strong', 'i', 'em', 'u', 's', 'small', 'sub', 'sup', 'mark', 'code', 'pre', 'p', 'br', 'hr',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'li', 'blockquote', 'span', 'div', 'section', 'header', 'footer',
  'table', 'thead', 'tbody', 'tfoot', 'tr', 'td', 'th', 'caption', 'img', 'center',
]);

const VOID_TAGS = new Set(['br', 'hr', 'img']);

// Dropped together with everything inside them (raw-text elements and foreign content).
const DROP_WITH_CONTENT = new Set([
  'script', 'style', 'iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'noscript', 'noembed', 'noframes',
  'template', 'textarea', 'title', 'xmp', 'plaintext', 'svg', 'math', 'select', 'option', 'head', 'base', 'link', 'meta',
]);

const GLOBAL_ATTRS = new Set(['style', 'title', 'align', 'dir', 'lang']);
const TAG_ATTRS: Record<string, Set<string>> = {
  a: new Set(['href', 'target', 'name']),
  img: new Set(['src', 'alt', 'width', 'height']),
  table: new Set(['width', 'border', 'cellpadding', 'cellspacing', 'role', 'bgcolor']),
  td: new Set(['width', 'colspan', 'rowspan', 'valign', 'bgcolor']),
  th: new Set(['width', 'colspan', 'rowspan', 'valign', 'bgcolor', 'scope']),
  tr: new Set(['valign', 'bgcolor']),
  ol: new Set(['start', 'type']),
  li: new Set(['value']),
};

const ALLOWED_CSS = new Set([
  'color', 'background-color', 'background', 'font-family', 'font-size', 'font-weight', 'font-style', 'line-height',
  'text-align', 'text-decoration', 'text-transform', 'letter-spacing', 'vertical-align', 'white-space',
  'margin', 'margin-top', 'margin-right', 'margin-bottom', 'margin-left',
  'padding', 'padding-top', 'padding-right', 'padding-bottom', 'padding-left',
  'border', 'border-top', 'border-right', 'border-bottom', 'border-left', 'border-color', 'border-width', 'border-style',
  'border-radius', 'border-collapse', 'display', 'width', 'max-width', 'min-width', 'height', 'max-height',
]);
// Letters, digits, spaces and the punctuation of colours, lengths and font lists; nothing that can
// open a url(), an escape, a comment or a new declaration.
const SAFE_CSS_VALUE = /^[a-z0-9\s#.,%'"()+-]*$/i;
const UNSAFE_CSS_WORD = /url|expression|import|javascript|behavior|binding|image|var\(|attr\(/i;

/** Character references decoded as a browser does inside an attribute value (core/html.ts): enough to see the real scheme. */
const decodeAttribute = (value: string) => decodeEntities(value, { inAttribute: true });

/** The URL if its scheme is allowed (relative URLs count as allowed), else null. */
export function safeUrl(raw: string, schemes: readonly string[]): string | null {
  // Browsers ignore ASCII whitespace and control characters inside a scheme ("java\tscript:").
  const decoded = decodeAttribute(raw).replace(/[\u0000-\u0020\u007f-\u009f\u200b-\u200f\u2028\u2029\ufeff]/g, '');
  if (!decoded) return null;
  const scheme = /^([^/?#]*?):/.exec(decoded);
  if (scheme && !schemes.includes(scheme[1].toLowerCase())) return null;
  if (decoded.startsWith('//') || decoded.startsWith('\\')) {
    // Protocol-relative: allowed only where https would be.
    return schemes.includes('https') ? decoded : null;
  }
  return decoded;
}

function safeStyle(raw: string): string | null {
  const decoded = decodeAttribute(raw);
  if (/[\\<>{}@;]{2,}|\/\*|\\/.test(decoded)) return null;
  const kept: string[] = [];
  for (const declaration of decoded.split(';')) {
    const colon = declaration.indexOf(':');
    if (colon < 0) continue;
    const property = declaration.slice(0, colon).trim().toLowerCase();
    const value = declaration.slice(colon + 1).trim();
    if (!ALLOWED_CSS.has(property) || !value || value.length > 200) continue;
    if (!SAFE_CSS_VALUE.test(value) || UNSAFE_CSS_WORD.test(value)) continue;
    kept.push(`${property}: ${value}`);
  }
  return kept.length ? kept.join('; ') : null;
}

function safeAttribute(tag: string, name: string, rawValue: string): string | null {
  if (!(GLOBAL_ATTRS.has(name) || TAG_ATTRS[tag]?.has(name))) return null;
  if (name === 'href') return safeUrl(rawValue, ['http', 'https', 'mailto', 'tel']);
  if (name === 'src') return safeUrl(rawValue, ['http', 'https']);
  if (name === 'style') return safeStyle(rawValue);
  if (name === 'target') return rawValue === '_blank' ? '_blank' : null;
  const value = decodeAttribute(rawValue);
  if (['width', 'height', 'border', 'cellpadding', 'cellspacing', 'colspan', 'rowspan', 'start', 'value'].includes(name)) {
    return /^\d{1,4}%?$/.test(value.trim()) ? value.trim() : null;
  }
  return value.slice(0, 500);
}

const TAG_NAME = /[a-zA-Z][^\s/>\u0000]*/y;
// One attribute: name (browsers allow almost anything but whitespace, / > =), optional value.
const ATTRIBUTE = /[\s/]*([^\s/>"'=][^\s/>"'=]*|=[^\s/>"'=]*)(?:\s*=\s*(?:"([^"]*)"?|'([^']*)'?|([^\s>]*)))?/y;

interface OpenTag {
  name: string;
  attrs: { name: string; value: string }[];
  selfClosing: boolean;
  end: number;
}

/** Reads a start tag at `at` (just after '<'), the way the HTML tokenizer does; null if it is not one. */
function readStartTag(html: string, at: number): OpenTag | null {
  TAG_NAME.lastIndex = at;
  const nameMatch = TAG_NAME.exec(html);
  if (!nameMatch) return null;
  const name = nameMatch[0].toLowerCase();
  let i = TAG_NAME.lastIndex;
  const attrs: { name: string; value: string }[] = [];
  for (;;) {
    while (i < html.length && /[\s/]/.test(html[i])) {
      if (html[i] === '/' && html[i + 1] === '>') return { name, attrs, selfClosing: true, end: i + 2 };
      i++;
    }
    if (i >= html.length) return { name, attrs, selfClosing: false, end: html.length };
    if (html[i] === '>') return { name, attrs, selfClosing: false, end: i + 1 };
    ATTRIBUTE.lastIndex = i;
    const m = ATTRIBUTE.exec(html);
    if (!m || ATTRIBUTE.lastIndex === i) {
      i++;
      continue;
    }
    attrs.push({ name: m[1].toLowerCase(), value: m[2] ?? m[3] ?? m[4] ?? '' });
    i = ATTRIBUTE.lastIndex;
  }
}

/** Index just past the end of the raw-text content of `tag` starting at `from` (past its end tag). */
function skipElementContent(html: string, tag: string, from: number): number {
  const lower = html.toLowerCase();
  if (tag === 'plaintext') return html.length;
  // svg and math can nest; the raw-text elements end at their first end tag.
  if (tag === 'svg' || tag === 'math') {
    let depth = 1;
    const pattern = new RegExp(`<(/?)${tag}(?=[\\s/>])`, 'gi');
    pattern.lastIndex = from;
    let m: RegExpExecArray | null;
    while ((m = pattern.exec(html))) {
      depth += m[1] ? -1 : 1;
      if (depth === 0) {
        const close = lower.indexOf('>', m.index);
        return close < 0 ? html.length : close + 1;
      }
    }
    return html.length;
  }
  const endTag = new RegExp(`</${tag}(?=[\\s/>])`, 'gi');
  endTag.lastIndex = from;
  const m = endTag.exec(html);
  if (!m) return html.length;
  const close = html.indexOf('>', m.index);
  return close < 0 ? html.length : close + 1;
}

export function sanitizeHtml(input: string): string {
  const html = input.replace(/\u0000/g, '');
  const out: string[] = [];
  const stack: string[] = [];
  let i = 0;
  while (i < html.length) {
    const lt = html.indexOf('<', i);
    if (lt < 0) {
      out.push(escapeHtml(html.slice(i), KEEP_AS_WRITTEN));
      break;
    }
    if (lt > i) out.push(escapeHtml(html.slice(i, lt), KEEP_AS_WRITTEN));
    const next = html[lt + 1];

    if (html.startsWith('<!--', lt)) {
      const end = html.indexOf('-->', lt + 4);
      const bang = html.indexOf('--!>', lt + 4);
      const stops = [end >= 0 ? end + 3 : -1, bang >= 0 ? bang + 4 : -1].filter((n) => n >= 0);
      i = html.startsWith('<!-->', lt) ? lt + 5 : html.startsWith('<!--->', lt) ? lt + 6 : stops.length ? Math.min(...stops) : html.length;
      continue;
    }
    if (next === '!' || next === '?') {
      // Doctype, CDATA, processing instruction, bogus comment: dropped up to the next '>'.
      const end = html.indexOf('>', lt);
      i = end < 0 ? html.length : end + 1;
      continue;
    }
    if (next === '/') {
      TAG_NAME.lastIndex = lt + 2;
      const nameMatch = TAG_NAME.exec(html);
      const end = html.indexOf('>', lt);
      i = end < 0 ? html.length : end + 1;
      if (!nameMatch) continue; // "</ >" and the like are bogus comments
      const name = nameMatch[0].toLowerCase();
      const depth = stack.lastIndexOf(name);
      if (ALLOWED_TAGS.has(name) && depth >= 0) {
        while (stack.length > depth) out.push(`</${stack.pop()}>`);
      }
      continue;
    }
    const tag = readStartTag(html, lt + 1);
    if (!tag) {
      out.push('&lt;');
      i = lt + 1;
      continue;
    }
    i = tag.end;
    if (DROP_WITH_CONTENT.has(tag.name)) {
      if (!tag.selfClosing || tag.name === 'script' || tag.name === 'style') i = skipElementContent(html, tag.name, i);
      continue;
    }
    if (!ALLOWED_TAGS.has(tag.name)) continue;

    const attrs: string[] = [];
    const seen = new Set<string>();
    for (const attr of tag.attrs) {
      if (seen.has(attr.name)) continue; // the HTML tokenizer keeps the first of duplicate attributes
      seen.add(attr.name);
      const value = safeAttribute(tag.name, attr.name, attr.value);
      if (value !== null) attrs.push(`${attr.name}="${escapeHtml(value)}"`);
    }
    if (tag.name === 'a' && seen.has('target') && attrs.some((a) => a.startsWith('target='))) attrs.push('rel="noopener noreferrer"');
    out.push(`<${tag.name}${attrs.length ? ` ${attrs.join(' ')}` : ''}>`);
    if (!VOID_TAGS.has(tag.name)) stack.push(tag.name);
  }
  while (stack.length) out.push(`</${stack.pop()}>`);
  return out.join('');
}
