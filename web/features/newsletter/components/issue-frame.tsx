/**
 * A newsletter issue on the public archive page. The HTML comes from GET /api/newsletters/:id,
 * already through the server's allowlist sanitizer (worker/services/newsletter/sanitize-html.ts);
 * it is still shown in a sandboxed iframe like the admin's preview (web/features/admin/components/
 * newsletter-frame.tsx), so its e-mail styles cannot leak into the page and, should the sanitizer
 * ever miss something, nothing in it runs: no scripts, no forms, an opaque origin. Unlike the
 * admin's preview its links work: a click opens them in the whole tab (`<base target="_top">`,
 * allowed on user activation only) or in a new tab.
 */
export function IssueFrame({ html, title }: { html: string; title: string }) {
  const srcDoc = html.includes('<head>') ? html.replace('<head>', '<head><base target="_top">') : `<base target="_top">${html}`;
  return (
    <iframe
      sandbox="allow-top-navigation-by-user-activation allow-popups allow-popups-to-escape-sandbox"
      srcDoc={srcDoc}
      title={title}
      className="h-[75vh] min-h-[28rem] w-full rounded-md border border-slate-200 bg-white"
    />
  );
}
