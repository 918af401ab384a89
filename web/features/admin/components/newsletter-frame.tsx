/**
 * Newsletter HTML shown as the recipient would see it, in an iframe with every sandbox
 * restriction on (sandbox=""): no scripts, no forms, no top navigation, an opaque origin, so a
 * generated or pasted newsletter can never act on the admin's session.
 */
export function NewsletterFrame({
  html,
  title,
  className = 'h-[32rem]',
  lazy = false,
}: {
  html: string;
  title: string;
  className?: string;
  /** Defer rendering until scrolled near (for long histories). */
  lazy?: boolean;
}) {
  return <iframe sandbox="" srcDoc={html} title={title} loading={lazy ? 'lazy' : 'eager'} className={`w-full rounded-md border border-slate-200 bg-white ${className}`} />;
}
