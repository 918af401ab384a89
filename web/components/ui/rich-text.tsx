import { sanitizeRichText } from '#core/content/rich-text';

/**
 * A paragraph of the content document's rich text (core/content/rich-text.ts), sanitised again on
 * render: only <strong>, <em>, <br> and <a> with a checked http(s), mailto: or tel: link survive;
 * any other markup (a pasted <script>) shows as the text it is. Its links are styled by
 * `[data-rich-text] a` (web/styles.css).
 */
export function RichText({ as: Tag = 'p', html, className }: { as?: 'p' | 'li'; html: string; className?: string }) {
  return <Tag data-rich-text="" className={className} dangerouslySetInnerHTML={{ __html: sanitizeRichText(html) }} />;
}
