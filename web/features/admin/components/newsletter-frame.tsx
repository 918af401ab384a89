/** What a draft's preview bar reads, as on a content preview (worker/services/content/preview-bar.ts). */
export const DRAFT_PREVIEW_TEXT = 'Draft preview: not live';

/**
 * Newsletter HTML shown as the recipient would see it, in an iframe with every sandbox
 * restriction on (sandbox=""): no scripts, no forms, no top navigation, an opaque origin, so a
 * generated or pasted newsletter can never act on the admin's session. A `draft` (an issue not
 * sent yet) has a bar fixed above the frame, outside it (the issue's own HTML is left as sent), so
 * a preview is never taken for the issue subscribers received (docs/product.md §5.6, §5.9).
 */
export function NewsletterFrame({
  html,
  title,
  className = 'h-[32rem]',
  lazy = false,
  draft = false,
}: {
  html: string;
  title: string;
  className?: string;
  /** Defer rendering until scrolled near (for long histories). */
  lazy?: boolean;
  /** Not sent yet: shown under the "Draft preview: not live" bar. */
  draft?: boolean;
}) {
  const frame = (
    <iframe sandbox="" srcDoc={html} title={title} loading={lazy ? 'lazy' : 'eager'} className={`block w-full bg-white ${draft ? '' : 'rounded-md border border-slate-200 '}${className}`} />
  );
  if (!draft) return frame;
  return (
    <div className="overflow-hidden rounded-md border-2 border-slate-900">
      <section aria-label="Draft preview" data-testid="newsletter-preview-bar" className="border-b-2 border-slate-900 bg-yellow-400 px-3 py-2 text-center text-sm font-bold text-slate-900">
        <p>
          {DRAFT_PREVIEW_TEXT}
          <span className="font-normal">. Nobody has received this yet.</span>
        </p>
      </section>
      {frame}
    </div>
  );
}
