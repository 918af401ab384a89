import { ExternalLink } from 'lucide-react';
import { publicRoutes } from '#core/public-routes';
import { api } from '../../lib/api';

// Preview (docs/decisions/0016-published-content-serving.md): each public page with the draft, as it
// will look once published, rendered by the worker with the same components
// (GET /api/admin/content/preview, the admin's only), in a new tab.

/** A page's title in the list: its address names it well enough. */
const pageLabel = (path: string) => (path === '/' ? 'Home' : path === '/faq' ? 'FAQ' : path.slice(1).replace(/-/g, ' ').replace(/^./, (c) => c.toUpperCase()));

/** The preview's address, from the typed client. */
const previewHref = (path: string) => api.admin.content.preview.$path({ query: { path } });

/** The public pages, each a link opening its preview with the draft (the live content without a draft). */
export function PreviewLinks({ hasDraft }: { hasDraft: boolean }) {
  return (
    <div className="space-y-2" data-testid="content-preview">
      <h3 className="text-sm font-semibold text-slate-800">Preview {hasDraft ? 'the draft' : 'the live content'} (opens in a new tab)</h3>
      <ul className="flex flex-wrap gap-2">
        {publicRoutes.map((route) => (
          <li key={route.path}>
            <a
              href={previewHref(route.path)}
              target="_blank"
              rel="noopener"
              className="inline-flex min-h-11 items-center gap-1 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-brand-700 hover:bg-slate-50"
              aria-label={`Preview ${pageLabel(route.path)} (opens in a new tab)`}
            >
              {pageLabel(route.path)}
              <ExternalLink className="h-3.5 w-3.5" aria-hidden="true" />
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}
