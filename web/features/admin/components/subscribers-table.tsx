import { ChevronLeft, ChevronRight, MailCheck, Search, Trash2 } from 'lucide-react';
import { useDeferredValue, useMemo, useState } from 'react';
import { Badge, type BadgeVariant } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogActions } from '../../../components/ui/dialog';
import { Input } from '../../../components/ui/input';
import { TableCell, TableRow, WideTable } from '../../../components/ui/table';
import { toast } from '../../../components/ui/use-toast';
import { errorMessage } from '../../../lib/api';
import { useDeleteSubscriber, useResendConfirmation, type Subscriber } from '../api/admin-api';
import { formatDate } from '../lib/format';
import { BreakableAddress } from './breakable-address';

// The list can hold tens of thousands of rows; the DOM only ever holds one page of them.
export const SUBSCRIBERS_PER_PAGE = 50;

// The Status column says Active or Inactive, nothing else (docs/product.md §6.3); why an inactive
// address gets no mail is the note beside it.
const statusLook: Record<Subscriber['status'], { label: 'Active' | 'Inactive'; variant: BadgeVariant; note?: string }> = {
  active: { label: 'Active', variant: 'success' },
  pending: { label: 'Inactive', variant: 'secondary', note: 'awaiting confirmation' },
  unsubscribed: { label: 'Inactive', variant: 'secondary', note: 'unsubscribed' },
  bounced: { label: 'Inactive', variant: 'destructive' },
  complained: { label: 'Inactive', variant: 'warning' },
};

/** What the badge leaves unsaid: why an address gets no mail (for a suppression, its reason and date). */
function statusNote(s: Subscriber): string | undefined {
  if (s.status === 'bounced' || s.status === 'complained') {
    const why = s.status === 'complained' ? 'marked our mail as spam' : 'bounced';
    const reason = s.suppressionDetail ? `${why}: ${s.suppressionDetail}` : why;
    return s.suppressedAt ? `${reason} · ${formatDate(s.suppressedAt)}` : reason;
  }
  return statusLook[s.status].note;
}

/**
 * docs/product.md §6.3: Email, Name (a dash when empty), Subscription Date, Status (Active or
 * Inactive, with the suppression's reason and date beside it for a bounced or complaining address),
 * searchable by e-mail or name; a pending subscriber can be sent the confirmation again, anyone can
 * be deleted (erasure).
 */
export function SubscribersTable({ subscribers }: { subscribers: Subscriber[] }) {
  const [query, setQuery] = useState('');
  const [page, setPage] = useState(0);
  const [toDelete, setToDelete] = useState<Subscriber | null>(null);
  const deferredQuery = useDeferredValue(query.trim().toLowerCase());

  // Lower-cased once per list, not once per keystroke: 10,000 rows filter within a frame.
  const haystacks = useMemo(() => subscribers.map((s) => `${s.email}\n${s.name ?? ''}`.toLowerCase()), [subscribers]);
  const filtered = useMemo(
    () => (deferredQuery ? subscribers.filter((_, i) => haystacks[i].includes(deferredQuery)) : subscribers),
    [subscribers, haystacks, deferredQuery],
  );
  const pageCount = Math.max(1, Math.ceil(filtered.length / SUBSCRIBERS_PER_PAGE));
  const current = Math.min(page, pageCount - 1);
  const first = current * SUBSCRIBERS_PER_PAGE;
  const rows = filtered.slice(first, first + SUBSCRIBERS_PER_PAGE);
  const empty = subscribers.length === 0 ? 'No subscribers yet' : 'No subscribers match your search';

  return (
    <div className="space-y-3">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:gap-4">
        <div className="relative w-full max-w-sm">
          <Search className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-slate-400" aria-hidden="true" />
          <Input
            type="search"
            aria-label="Search subscribers"
            placeholder="Search by email or name"
            value={query}
            onChange={(e) => {
              setQuery(e.target.value);
              setPage(0);
            }}
            className="pl-9"
          />
        </div>
        <p role="status" className="text-sm text-slate-600" data-testid="subscriber-search-count">
          {deferredQuery
            ? `${filtered.length.toLocaleString('en-US')} of ${subscribers.length.toLocaleString('en-US')} subscribers match`
            : `${subscribers.length.toLocaleString('en-US')} subscribers`}
        </p>
      </div>
      {/* Phones: one block per subscriber (five columns do not fit 390 px). */}
      <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white md:hidden" aria-label="Subscriber list">
        {rows.length === 0 ? (
          <li className="p-6 text-center text-sm text-slate-600">{empty}</li>
        ) : (
          rows.map((s) => {
            const note = statusNote(s);
            return (
              <li key={s.id} className="space-y-1 p-3 text-sm" data-testid="subscriber-item">
                <div className="flex items-start justify-between gap-2">
                  <p className="min-w-0 font-medium text-slate-900">
                    <BreakableAddress address={s.email} />
                  </p>
                  {/* Never squeezed below its word: the address wraps at its seams instead. */}
                  <span className="shrink-0">
                    <StatusBadge subscriber={s} />
                  </span>
                </div>
                <p className="break-words text-slate-700">{s.name || '-'}</p>
                <p className="break-words text-xs text-slate-500">
                  Subscribed {formatDate(s.subscriptionDate)}
                  {note && ` · ${note}`}
                </p>
                <SubscriberActions subscriber={s} onDelete={setToDelete} />
              </li>
            );
          })
        )}
      </ul>
      <WideTable label="Subscribers" columns={['Email', 'Name', 'Subscription Date', 'Status', 'Actions']}>
        {rows.length === 0 ? (
          <tr>
            <TableCell colSpan={5} className="py-8 text-center text-slate-600">
              {empty}
            </TableCell>
          </tr>
        ) : (
          rows.map((s) => {
            const note = statusNote(s);
            return (
              <TableRow key={s.id} data-testid="subscriber-row">
                <TableCell className="font-medium">
                  <BreakableAddress address={s.email} />
                </TableCell>
                <TableCell>{s.name || '-'}</TableCell>
                <TableCell className="whitespace-nowrap">{formatDate(s.subscriptionDate)}</TableCell>
                <TableCell>
                  <StatusBadge subscriber={s} />
                  {note && <span className="ml-2 text-xs text-slate-500">{note}</span>}
                </TableCell>
                <TableCell className="whitespace-nowrap">
                  <SubscriberActions subscriber={s} onDelete={setToDelete} />
                </TableCell>
              </TableRow>
            );
          })
        )}
      </WideTable>
      {filtered.length > SUBSCRIBERS_PER_PAGE && (
        <nav aria-label="Subscriber pages" className="flex flex-wrap items-center justify-between gap-2 text-sm text-slate-700">
          <p>
            Showing {first + 1}–{first + rows.length} of {filtered.length}
          </p>
          <div className="flex items-center gap-2">
            <Button icon={ChevronLeft} variant="outline" size="sm" onClick={() => setPage(current - 1)} disabled={current === 0}>Previous</Button>
            <span>
              Page {current + 1} of {pageCount}
            </span>
            <Button variant="outline" size="sm" onClick={() => setPage(current + 1)} disabled={current >= pageCount - 1}>
              Next
              <ChevronRight className="h-4 w-4" aria-hidden="true" />
            </Button>
          </div>
        </nav>
      )}
      <DeleteSubscriberDialog subscriber={toDelete} onClose={() => setToDelete(null)} />
    </div>
  );
}

function StatusBadge({ subscriber }: { subscriber: Subscriber }) {
  const look = statusLook[subscriber.status];
  return (
    <Badge variant={look.variant} title={statusNote(subscriber)}>
      {look.label}
    </Badge>
  );
}

function SubscriberActions({ subscriber: s, onDelete }: { subscriber: Subscriber; onDelete: (s: Subscriber) => void }) {
  const resend = useResendConfirmation();

  function resendConfirmation() {
    resend.mutate(s.id, {
      onSuccess: (answer) => toast({ title: 'Confirmation sent', description: answer.message }),
      onError: (error) => toast({ variant: 'destructive', title: 'Error', description: errorMessage(error, 'Failed to resend the confirmation. Please try again.') }),
    });
  }

  return (
    <div className="flex flex-wrap gap-2 pt-1 md:flex-nowrap md:pt-0">
      {s.status === 'pending' && (
        <Button icon={MailCheck} variant="outline" size="sm" onClick={resendConfirmation} disabled={resend.isPending} aria-label={`Resend confirmation to ${s.email}`}>
          Resend
        </Button>
      )}
      <Button icon={Trash2} variant="ghost" size="sm" onClick={() => onDelete(s)} aria-label={`Delete ${s.email}`} className="text-red-700 hover:bg-red-50">
        Delete
      </Button>
    </div>
  );
}

/** Erasure is final, so it is asked once more, naming the address. */
function DeleteSubscriberDialog({ subscriber, onClose }: { subscriber: Subscriber | null; onClose: () => void }) {
  const remove = useDeleteSubscriber();

  function confirm() {
    if (!subscriber) return;
    remove.mutate(subscriber.id, {
      onSuccess: () => {
        toast({ title: 'Subscriber deleted', description: `${subscriber.email} has been deleted and erased from the delivery records.` });
        onClose();
      },
      onError: (error) => toast({ variant: 'destructive', title: 'Error', description: errorMessage(error, 'Failed to delete the subscriber. Please try again.') }),
    });
  }

  return (
    <Dialog
      open={subscriber !== null}
      onOpenChange={(open) => !open && onClose()}
      title="Delete this subscriber?"
      description={
        <>
          <span className="break-all font-medium text-slate-900">{subscriber?.email}</span> will be removed from the list, and their address erased from
          the delivery records and the e-mail log. The newsletters' counts stay. This cannot be undone.
        </>
      }
    >
      <DialogActions cancel="Keep" onCancel={onClose}>
        <Button icon={Trash2} variant="destructive" onClick={confirm} disabled={remove.isPending}>Delete subscriber</Button>
      </DialogActions>
    </Dialog>
  );
}
