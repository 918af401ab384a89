/**
 * Text made safe to put inside HTML, in an element or a quoted attribute: & < > " and ' escaped.
 * Every page, e-mail and shell the worker writes escapes text with this one function.
 */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}
