/** The 404 page's content; also what a newsletter issue shows when the API has no such issue. */
export function NotFoundContent() {
  return (
    <section className="mx-auto flex max-w-3xl flex-col items-center px-4 py-24 text-center">
      <p className="text-6xl font-extrabold text-brand-700" aria-hidden="true">
        404
      </p>
      <h1 className="mt-4 text-3xl font-bold text-slate-900">404 Page Not Found</h1>
      <p className="mt-4 text-lg text-slate-700">Sorry, we couldn&apos;t find the page you were looking for. It may have moved, or the address may be mistyped.</p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <a href="/" className="rounded-md bg-brand-700 px-5 py-3 font-semibold text-white hover:bg-brand-800">
          Return to Home
        </a>
        <a href="/contact" className="rounded-md border border-slate-300 px-5 py-3 font-semibold text-slate-800 hover:bg-slate-50">
          Contact Us
        </a>
      </div>
    </section>
  );
}
