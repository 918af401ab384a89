import { MailCheck, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Badge, type BadgeVariant } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogActions } from '../../../components/ui/dialog';
import { TableCell, TableRow, WideTable } from '../../../components/ui/table';
import { toast } from '../../../components/ui/use-toast';
import { errorMessage } from '../../../lib/api';
import { useDeleteSubscriber, useResendConfirmation, type Subscriber } from '../api/admin-api';
import type { SubscriberPage } from '../api/subscribers-api';
import { formatDate } from '../lib/format';
import { BreakableAddress } from './breakable-address';

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
 * Inactive, with the suppression's reason and date beside it for a bounced or complaining address)
 * of one page of the server's search (the search box and pager are the page's, list-controls.tsx);
 * a pending subscriber can be sent the confirmation again, anyone can be deleted (erasure).
 */
export function SubscribersTable({ page, filtered, loading }: { page: SubscriberPage | undefined; filtered: boolean; loading: boolean }) {
  const [toDelete, setToDelete] = useState<Subscriber | null>(null);
  const rows = page?.items ?? [];
  const total = page?.total ?? 0;
  const empty = filtered ? 'No subscribers match your search' : 'No subscribers yet';

  return (
    <div className="space-y-3" aria-busy={loading}>
      <p role="status" className="text-sm text-slate-600" data-testid="subscriber-search-count">
        {filtered ? `${total.toLocaleString('en-US')} ${total === 1 ? 'subscriber matches' : 'subscribers match'}` : `${total.toLocaleString('en-US')} subscribers`}
      </p>
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
