import { ChevronRight, History, Send } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button, buttonClass } from '../../components/ui/button';
import { type Conflict, type ContentState } from './content-api';
import { ConflictAlert, formatWhen } from './conflict';
import { PreviewLinks } from './preview-links';
import { PublishReviewDialog } from './publish-review';
import { CONTENT_SECTIONS } from './sections';

// /admin/content's body (docs/product.md §6.6, the content screens): what is live, the draft if
// any, the Publish button (which first shows what would go live, publish-review.tsx), the sections
// to edit and the way to the history.

export function ContentOverview({ state, reload }: { state: ContentState; reload: () => Promise<unknown> }) {
  const [reviewing, setReviewing] = useState(false);
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const { published, draft } = state;
  const stale = draft !== null && draft.basedOn !== published.version;

  const onPublish = () => {
    if (!draft) return;
    setConflict(null);
    setReviewing(true);
  };

  return (
    <div className="space-y-8">
      <div className="space-y-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6" data-testid="content-status">
        <h2 className="text-lg font-semibold text-brand-800">Status</h2>
        <p className="text-sm text-slate-800">
          <span className="font-medium">Live:</span> version {published.version}
          {published.publishedBy ? `, published by ${published.publishedBy} on ${formatWhen(published.publishedAt)}` : ' (the default content)'}.
        </p>
        <p className="text-sm text-slate-800" data-testid="content-draft-state">
          <span className="font-medium">Draft:</span>{' '}
          {draft ? `saved by ${draft.updatedBy} on ${formatWhen(draft.updatedAt)}, made from version ${draft.basedOn}.` : 'none. Edit a section and save to start one.'}
        </p>
        {stale && (
          <p className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
            Version {published.version} was published after this draft was made, so the draft can no longer be published. Open a section and save it to start a new draft
            from version {published.version}.
          </p>
        )}
        {conflict && <ConflictAlert conflict={conflict} busy={false} onReload={() => void reload().then(() => setConflict(null))} />}
        <div className="flex flex-wrap gap-2">
          <Button onClick={onPublish} disabled={!draft || stale}>
            <Send className="h-4 w-4" aria-hidden="true" />
            Publish
          </Button>
          <Link to="/admin/content/history" className={buttonClass('outline')}>
            <History className="h-4 w-4" aria-hidden="true" />
            History
          </Link>
        </div>
        <PreviewLinks hasDraft={draft !== null} />
      </div>
      <PublishReviewDialog open={reviewing} onClose={() => setReviewing(false)} onStale={setConflict} />

      <nav aria-labelledby="content-sections">
        <h2 id="content-sections" className="mb-3 text-xl font-semibold text-brand-800">
          Sections
        </h2>
        <ul className="grid gap-3 sm:grid-cols-2">
          {CONTENT_SECTIONS.map((section) => (
            <li key={section.slug}>
              <Link
                to={`/admin/content/${section.slug}`}
                className="flex h-full items-center justify-between gap-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm hover:border-brand-600 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600"
              >
                <span>
                  <span className="block font-semibold text-brand-800">{section.title}</span>
                  <span className="block text-sm text-slate-600">{section.intro}</span>
                </span>
                <ChevronRight className="h-5 w-5 shrink-0 text-slate-500" aria-hidden="true" />
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </div>
  );
}
