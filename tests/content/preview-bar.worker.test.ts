import { describe, expect, it } from 'vitest';
import { PREVIEW_BAR_TEXT, PREVIEW_NO_DRAFT_TEXT, withPreviewBar } from '../../worker/services/content/preview-bar';

// docs/product.md §6.7 "Preview": the bar the worker puts on a content preview
// (worker/services/content/preview-bar.ts). Its look and place in the browser:
// tests/content/draft-preview-bar.e2e.test.ts.

const PAGE = '<!doctype html><html><head><!--app-head--><title>FAQ | Harbor &amp; Lane</title><!--/app-head--></head><body class="x"><div id="root"></div></body></html>';

describe('withPreviewBar', () => {
  it('puts the bar first in the body, its style in the head, and its words first in the title', () => {
    const html = withPreviewBar(PAGE, true);
    expect(html).toContain(`<body class="x"><section id="draft-preview-bar" aria-label="Draft preview"`);
    expect(html).toContain(`<p>${PREVIEW_BAR_TEXT}<span>`);
    expect(html).toMatch(/<style id="draft-preview-style">[\s\S]*--preview-bar-height[\s\S]*<\/style><\/head>/);
    expect(html).toContain(`<title>${PREVIEW_BAR_TEXT} · FAQ | Harbor &amp; Lane</title>`);
    expect(html.match(/<section id="draft-preview-bar"/g)).toHaveLength(1);
  });

  it('says the page shows the published content when there is no draft', () => {
    const html = withPreviewBar(PAGE, false);
    expect(html).toContain(`<p>${PREVIEW_NO_DRAFT_TEXT}<span></span></p>`);
    expect(html).toContain(`<title>${PREVIEW_NO_DRAFT_TEXT} · FAQ`);
  });

  it('refuses a page without a head or a body rather than serve one without the bar', () => {
    expect(() => withPreviewBar('<p>no page</p>', true)).toThrow(/without <head> or <body>/);
  });
});
