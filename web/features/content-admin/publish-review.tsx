import { AlertTriangle, Send } from 'lucide-react';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Dialog, DialogLoadState } from '../../components/ui/dialog';
import { toast } from '../../components/ui/use-toast';
import { ApiError, errorMessage } from '../../lib/api';
import { changeWords } from './change-labels';
import { conflictOf, useContentReview, usePublish, type Conflict, type ContentReview } from './content-api';
import { formatWhen } from './conflict';

// The Publish confirmation (docs/product.md §6.7): every change the draft makes to the live site,
// in the screens' words, with who saved it and when; changes to the firm's e-mail addresses, the
// Pay Now link and any other link listed first and marked, so none goes live unseen. Publish sends
// the draft revision shown: a draft saved since is refused (409), said in a toast, and the list is
// read again.

type Change = ContentReview['changes'][number];

const FLAG_LABEL: Record<NonNullable<Change['flag']>, string> = { payment: 'Payment link', email: 'E-mail address', link: 'Link' };

const shown = (value: Change['before']) => (value === null ? 'empty' : typeof value === 'string' ? `“${value}”` : String(value));

function Value({ kind, value }: { kind: 'before' | 'after'; value: Change['before'] }) {
  if (value === undefined) return null;
  const Tag = kind === 'before' ? 'del' : 'ins';
  return (
    <p className="break-words [overflow-wrap:anywhere]">
      <span className="font-medium text-slate-700">{kind === 'before' ? 'Was: ' : 'Now: '}</span>
      <Tag className={kind === 'before' ? 'text-red-800' : 'text-green-800 no-underline'}>{shown(value)}</Tag>
    </p>
  );
}

function ChangeItem({ change }: { change: Change }) {
  const { where, field } = changeWords(change.path);
  const savedBy = change.savedBy.length > 0
    ? `Saved by ${change.savedBy.map((s) => `${s.by} on ${formatWhen(s.at)}`).join(', then earlier by ')}`
    : 'Saved before changes were attributed';
  return (
    <li className="space-y-1 py-2 text-sm text-slate-800" data-testid="publish-change" data-path={change.path} data-flag={change.flag ?? ''}>
      <p className="flex flex-wrap items-center gap-2">
        {change.flag && (
          <Badge variant="warning">
            <AlertTriangle className="h-3 w-3" aria-hidden="true" />
            {FLAG_LABEL[change.flag]}
          </Badge>
        )}
        <span title={change.path}>
          {where && <span className="text-slate-600">{where} › </span>}
          <span className="font-semibold">{field}</span>{' '}
          <span className="text-slate-600">{change.kind === 'added' ? '(added)' : change.kind === 'removed' ? '(removed)' : '(changed)'}</span>
        </span>
      </p>
      <Value kind="before" value={change.before} />
      <Value kind="after" value={change.after} />
      <p className="text-xs text-slate-600">{savedBy}</p>
    </li>
  );
}

export function PublishReviewDialog({ open, onClose, onStale }: { open: boolean; onClose: () => void; onStale: (conflict: Conflict) => void }) {
  const review = useContentReview(open);
  const publish = usePublish();
  const data = review.data;
  const flagged = data?.changes.filter((c) => c.flag) ?? [];
  const others = data?.changes.filter((c) => !c.flag) ?? [];
  const stale = data !== undefined && data.basedOn !== data.live.version;

  const confirm = () => {
    if (!data) return;
    publish.mutate(
      { basedOn: data.basedOn, revision: data.revision },
      {
        onSuccess: ({ version }) => {
          onClose();
          toast({ title: `Version ${version} published`, description: 'The draft is now the live content.' });
        },
        onError: (error) => {
          const refused = conflictOf(error);
          if (refused?.kind === 'published') {
            onClose();
            onStale(refused);
            return;
          }
          const message = errorMessage(error, 'Failed to publish. Please try again.');
          toast({ variant: 'destructive', title: 'Not published', description: message });
          // The draft changed since it was shown: show what it is now (the list is read again).
          if (error instanceof ApiError && error.status === 409) void review.refetch();
        },
      },
    );
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !next && !publish.isPending && onClose()}
      title="Publish these changes?"
      description={
        data
          ? `What goes live when you publish: the draft against version ${data.live.version}. The draft was last saved by ${data.updatedBy} on ${formatWhen(data.updatedAt)}.`
          : 'What goes live when you publish: the draft against the live version.'
      }
      className="max-w-2xl"
    >
      <DialogLoadState query={review} loading="Reading the draft’s changes…" failure="The changes could not be read. Close this and try again." />
      {data && (
        <div className="space-y-4" data-testid="publish-review" data-revision={data.revision}>
          {stale && (
            <p className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
              Version {data.live.version} was published after this draft was made, so the draft can no longer be published.
            </p>
          )}
          {flagged.length > 0 && (
            <section aria-labelledby="publish-flagged-title" className="rounded-md border-2 border-amber-400 bg-amber-50 p-3 sm:p-4" data-testid="publish-flagged">
              <h3 id="publish-flagged-title" className="flex items-center gap-2 font-semibold text-amber-950">
                <AlertTriangle className="h-5 w-5 shrink-0" aria-hidden="true" />
                Check these first: {flagged.length === 1 ? '1 change moves' : `${flagged.length} changes move`} where clients’ e-mail, payments or clicks go
              </h3>
              <ul className="mt-1 divide-y divide-amber-200">
                {flagged.map((change) => (
                  <ChangeItem key={change.path} change={change} />
                ))}
              </ul>
            </section>
          )}
          {others.length > 0 && (
            <section aria-labelledby="publish-others-title">
              <h3 id="publish-others-title" className="font-semibold text-slate-900">
                {flagged.length > 0 ? `Other changes (${others.length})` : `Changes (${others.length})`}
              </h3>
              <ul className="divide-y divide-slate-100">
                {others.map((change) => (
                  <ChangeItem key={change.path} change={change} />
                ))}
              </ul>
            </section>
          )}
          {data.changes.length === 0 && <p className="text-sm text-slate-700">The draft is the same as the live version: publishing changes nothing a visitor sees.</p>}
        </div>
      )}
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="outline" onClick={onClose} disabled={publish.isPending}>
          Cancel
        </Button>
        <Button onClick={confirm} disabled={!data || stale || publish.isPending || review.isFetching}>
          <Send className="h-4 w-4" aria-hidden="true" />
          {publish.isPending ? 'Publishing…' : data ? `Publish version ${data.live.version + 1}` : 'Publish'}
        </Button>
      </div>
    </Dialog>
  );
}
