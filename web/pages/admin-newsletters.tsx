import { CalendarClock, CalendarX, PenLine, Plus } from 'lucide-react';
import { Link } from 'react-router';
import { Button, buttonClass } from '../components/ui/button';
import { Card, CardContent, CardHeader } from '../components/ui/card';
import { toast } from '../components/ui/use-toast';
import { useReadFailures } from '../features/admin/api/admin-api';
import { type NewsletterDraft, useCancelSchedule, useDrafts } from '../features/admin/api/newsletter-drafts-api';
import { AdminSpinner, AdminSubPage, SectionHeading, adminScreen } from '../features/admin/components/admin-page-parts';
import { DraftStatusBadge } from '../features/admin/components/draft-status';
import { formatDateTime } from '../features/admin/lib/format';
import { errorMessage } from '../lib/api';

/** /admin/newsletters: what is scheduled, and every draft (docs/product.md §5.9). */
export default adminScreen({ title: 'Newsletter Drafts', description: 'Newsletter drafts and scheduled issues' }, Drafts);

function Drafts() {
  const drafts = useDrafts();
  useReadFailures(drafts, 'Failed to load the newsletter drafts.');
  if (drafts.isPending) return <AdminSpinner />;
  const list = drafts.data ?? [];
  const scheduled = list.filter((d) => d.status === 'scheduled');
  const others = list.filter((d) => d.status !== 'scheduled');

  return (
    <AdminSubPage
      width="5xl"
      title="Newsletter Drafts"
      intro="Write newsletters, save them and schedule them"
      actions={
        <Link to="/admin/newsletters/edit" className={buttonClass('primary', 'md', 'self-start lg:self-auto')}>
          <Plus className="h-4 w-4" aria-hidden="true" />
          New Newsletter
        </Link>
      }
    >
      {drafts.isError && (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-4 text-sm text-red-800">
          Failed to load the newsletter drafts.
        </p>
      )}

      <DraftList id="scheduled-heading" title="Scheduled" drafts={scheduled} empty="Nothing is scheduled" />
      <DraftList id="drafts-heading" title="Drafts and past issues" drafts={others} empty="No drafts yet" />
    </AdminSubPage>
  );
}

/** One list of drafts under its heading, or the line saying it is empty. */
function DraftList({ id, title, drafts, empty }: { id: string; title: string; drafts: NewsletterDraft[]; empty: string }) {
  return (
    <section aria-labelledby={id} className="space-y-3">
      <SectionHeading id={id}>{title}</SectionHeading>
      {drafts.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 p-6 text-center text-slate-600">{empty}</p>
      ) : (
        <ul className="space-y-3">
          {drafts.map((d) => (
            <DraftCard key={d.id} draft={d} />
          ))}
        </ul>
      )}
    </section>
  );
}

function DraftCard({ draft }: { draft: NewsletterDraft }) {
  const cancel = useCancelSchedule();
  const done = draft.status === 'sent' || draft.status === 'sending';
  return (
    <li>
      <Card data-testid="newsletter-draft">
        <CardHeader className="pb-2">
          <div className="flex flex-wrap items-start justify-between gap-2">
            <h3 className="font-semibold text-slate-900">{draft.subject}</h3>
            <DraftStatusBadge status={draft.status} />
          </div>
          <p className="text-sm text-slate-600">
            {draft.status === 'scheduled' && draft.scheduledAt ? (
              <>
                <CalendarClock className="mr-1 inline h-4 w-4" aria-hidden="true" />
                Sends {formatDateTime(draft.scheduledAt)}
              </>
            ) : (
              `Last changed ${formatDateTime(draft.updatedAt)}`
            )}
          </p>
          {draft.error && <p className="text-sm text-amber-900">{draft.error}</p>}
        </CardHeader>
        <CardContent className="flex flex-wrap gap-2">
          <Link to={`/admin/newsletters/edit?id=${draft.id}`} className={buttonClass('outline', 'sm')} aria-label={`${done ? 'Open' : 'Edit'} ${draft.subject}`}>
            <PenLine className="h-4 w-4" aria-hidden="true" />
            {done ? 'Open' : 'Edit'}
          </Link>
          {draft.status === 'scheduled' && (
            <Button
              variant="outline"
              size="sm"
              disabled={cancel.isPending}
              aria-label={`Cancel the schedule of ${draft.subject}`}
              onClick={() =>
                cancel.mutate(draft.id, {
                  onSuccess: (answer) => toast({ title: 'Schedule cancelled', description: answer.message }),
                  onError: (error) => toast({ variant: 'destructive', title: 'Error', description: errorMessage(error, 'Failed to cancel the schedule') }),
                })
              }
            >
              <CalendarX className="h-4 w-4" aria-hidden="true" />
              Cancel Schedule
            </Button>
          )}
        </CardContent>
      </Card>
    </li>
  );
}
