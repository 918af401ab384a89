import { Mail, Paperclip } from 'lucide-react';
import { useState } from 'react';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { TableCell, TableRow, WideTable } from '../../../components/ui/table';
import type { EmailLogEntry } from '../api/admin-api';
import { formatDateTime } from '../lib/format';
import { LoadFailure, SectionHeading } from './admin-page-parts';
import { BreakableAddress } from './breakable-address';
import { decodedSize, EmailMessageDialog, mediaTypeOf } from './email-message-dialog';
import { emailStatusVariant as statusVariant } from './email-status';

const PAGE = 20;

/** What went out and what failed (the API keeps the latest 200). */
export function EmailLogPanel({ emails, isPending, error }: { emails: EmailLogEntry[] | undefined; isPending: boolean; error: Error | null }) {
  const [onlyFailed, setOnlyFailed] = useState(false);
  const [shown, setShown] = useState(PAGE);
  const [opened, setOpened] = useState<number | null>(null);
  const failed = emails?.filter((e) => e.status === 'failed').length ?? 0;
  const rows = (onlyFailed ? emails?.filter((e) => e.status === 'failed') : emails) ?? [];

  return (
    <section aria-labelledby="email-log-heading" className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex items-center gap-3">
          <SectionHeading id="email-log-heading">Email Log</SectionHeading>
          {emails && <Badge variant={failed > 0 ? 'destructive' : 'secondary'}>{failed} failed</Badge>}
        </div>
        <label className="flex items-center gap-2 text-sm text-slate-700">
          <input type="checkbox" checked={onlyFailed} onChange={(e) => setOnlyFailed(e.target.checked)} className="h-4 w-4" />
          Only failures
        </label>
      </div>
      {isPending ? (
        <p className="text-sm text-slate-600">Loading the e-mail log…</p>
      ) : error ? (
        <LoadFailure what="the e-mail log" error={error} />
      ) : rows.length === 0 ? (
        <p className="text-sm text-slate-600">{onlyFailed ? 'No failed e-mails.' : 'No e-mails sent yet.'}</p>
      ) : (
        <>
        {/* Phones get one compact block per e-mail; a five-column table does not fit 390 px. */}
        <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white md:hidden" aria-label="Email log entries">
          {rows.slice(0, shown).map((e) => (
            <li key={e.id} className="space-y-1 p-3 text-sm" data-testid="email-log-item">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <span className="text-xs text-slate-600">{formatDateTime(e.createdAt)}</span>
                <Badge variant={statusVariant[e.status]}>{e.status}</Badge>
              </div>
              <p className="font-medium text-slate-900">
                <BreakableAddress address={e.to} />
              </p>
              <p className="text-slate-800">{e.subject}</p>
              <p className="text-xs text-slate-500">{e.kind}</p>
              <Attachments attachments={e.attachments} />
              {e.error && <p className="text-xs text-red-700">{e.error}</p>}
              <Delivery entry={e} />
              <ViewButton entry={e} onOpen={setOpened} />
            </li>
          ))}
        </ul>
        <WideTable label="Email log" columns={['Time', 'To', 'Subject', 'Kind', 'Status', 'Message']}>
          {rows.slice(0, shown).map((e) => (
            // The whole row opens the message for a pointer; its View button does for the keyboard.
            <TableRow
              key={e.id}
              data-testid="email-log-row"
              className="cursor-pointer"
              onClick={(event) => {
                if (!(event.target as HTMLElement).closest('a, button')) setOpened(e.id);
              }}
            >
              <TableCell className="whitespace-nowrap text-xs text-slate-600">{formatDateTime(e.createdAt)}</TableCell>
              <TableCell>
                <BreakableAddress address={e.to} />
              </TableCell>
              <TableCell className="min-w-48">
                {e.subject}
                <Attachments attachments={e.attachments} />
              </TableCell>
              <TableCell className="whitespace-nowrap text-xs">{e.kind}</TableCell>
              <TableCell>
                <Badge variant={statusVariant[e.status]}>{e.status}</Badge>
                {e.error && <p className="mt-1 max-w-xs text-xs text-red-700">{e.error}</p>}
                <Delivery entry={e} />
              </TableCell>
              <TableCell>
                <ViewButton entry={e} onOpen={setOpened} />
              </TableCell>
            </TableRow>
          ))}
        </WideTable>
        <EmailMessageDialog id={opened} onClose={() => setOpened(null)} />
        </>
      )}
      {rows.length > shown && (
        <Button variant="outline" size="sm" onClick={() => setShown((n) => n + PAGE)}>
          Show more ({rows.length - shown} more)
        </Button>
      )}
    </section>
  );
}

/** Opens the message as it was sent (EmailMessageDialog). */
function ViewButton({ entry, onOpen }: { entry: EmailLogEntry; onOpen: (id: number) => void }) {
  return (
    <Button variant="outline" size="sm" aria-label={`View the e-mail to ${entry.to}: ${entry.subject}`} onClick={() => onOpen(entry.id)}>
      <Mail className="h-4 w-4" aria-hidden="true" />
      View
    </Button>
  );
}

/** What MailChannels reported after the hand-off (its delivery events), when it did. */
function Delivery({ entry }: { entry: EmailLogEntry }) {
  if (!entry.deliveryStatus) return null;
  const failed = /bounced|dropped|complained/.test(entry.deliveryStatus);
  return (
    <p className={`mt-1 max-w-xs text-xs ${failed ? 'text-red-700' : 'text-emerald-800'}`} data-testid="email-delivery">
      {entry.deliveryStatus}
      {entry.deliveryUpdatedAt ? ` ${formatDateTime(entry.deliveryUpdatedAt)}` : ''}
      {entry.deliveryDetail ? `: ${entry.deliveryDetail}` : ''}
    </p>
  );
}

type Attachment = EmailLogEntry['attachments'][number];

/**
 * The files that went out with the e-mail (the .ics invites), each a download built in the browser
 * from the logged content: a data: URL with the download attribute saves the file, never opens it.
 */
function Attachments({ attachments }: { attachments: Attachment[] }) {
  if (attachments.length === 0) return null;
  return (
    <ul className="mt-1 space-y-1" aria-label="Attachments">
      {attachments.map((a, i) => {
        const mediaType = mediaTypeOf(a.contentType);
        return (
          <li key={i}>
            <a
              href={`data:${mediaType};base64,${a.content}`}
              download={a.filename}
              data-testid="email-attachment"
              className="inline-flex items-center gap-1 py-1 text-sm text-brand-700 underline hover:text-brand-800"
            >
              <Paperclip className="h-3 w-3 shrink-0" aria-hidden="true" />
              {a.filename}
              <span className="text-slate-600">({decodedSize(a.content)})</span>
            </a>
          </li>
        );
      })}
    </ul>
  );
}
