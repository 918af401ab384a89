import { escapeHtml } from '#core/html';

// The bar that makes a content preview unmistakable (docs/product.md §6.6 "Preview"): a preview is
// the public page rendered with the draft (worker/routes/admin/content.ts), which otherwise looks
// exactly like the live site. The bar is fixed at the top of the window in a colour the site never
// uses, the page keeps its height free above the header (the header's sticky offset and the scroll
// padding read --preview-bar-height, web/components/layout/site-header.tsx and web/styles.css), it
// is a named landmark, and the tab's title starts with it, so a screen reader announces it first.
// Plain HTML and CSS (inline styles are allowed by the admin pages' policy, worker/security-headers.ts):
// the prerendered page's critical CSS only holds the rules its own markup uses.

/** What the bar reads: the words a person checks before trusting what they see. */
export const PREVIEW_BAR_TEXT = 'Draft preview: not live';
/** What it reads when there is no draft: the preview then shows the published content. */
export const PREVIEW_NO_DRAFT_TEXT = 'Preview: no draft, this is the published content';

const STYLE = `<style id="draft-preview-style">
:root{--preview-bar-height:3rem}
body{padding-top:var(--preview-bar-height)}
#draft-preview-bar{position:fixed;top:0;left:0;right:0;z-index:45;box-sizing:border-box;height:var(--preview-bar-height);display:flex;align-items:center;justify-content:center;gap:.5rem;padding:0 1rem;background:#facc15;color:#111827;border-bottom:3px solid #111827;font:700 1rem/1.2 system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;text-align:center;overflow:hidden}
#draft-preview-bar p{margin:0}
#draft-preview-bar span{font-weight:400}
@media (max-width:639px){#draft-preview-bar span{display:none}}
</style>`;

/**
 * `html` (a preview page) with the bar: its style at the end of the head, the bar first in the
 * body, and the title led by what the bar says. `hasDraft` false: the bar says the page shows the
 * published content (there is nothing else to preview).
 */
export function withPreviewBar(html: string, hasDraft: boolean): string {
  const text = hasDraft ? PREVIEW_BAR_TEXT : PREVIEW_NO_DRAFT_TEXT;
  const detail = hasDraft ? '. Visitors still see the published site until you publish.' : '';
  const bar = `<section id="draft-preview-bar" aria-label="Draft preview" data-testid="draft-preview-bar"><p>${escapeHtml(text)}<span>${escapeHtml(detail)}</span></p></section>`;
  if (!/<\/head>/.test(html) || !/<body[^>]*>/.test(html)) throw new Error('a preview page without <head> or <body>');
  return html
    .replace(/<title>([^<]*)<\/title>/, (_, title: string) => `<title>${escapeHtml(text)} · ${title}</title>`)
    .replace('</head>', () => `${STYLE}</head>`)
    .replace(/<body[^>]*>/, (body) => `${body}${bar}`);
}
