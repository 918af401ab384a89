import { useState } from 'react';
import { Badge, type BadgeVariant } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../components/ui/table';
import { errorMessage } from '../../../lib/api';
import type { EmailLogEntry } from '../api/admin-api';
import { formatDateTime } from '../lib/format';

const statusVariant: Record<EmailLogEntry['status'], BadgeVariant> = {
  sent: 'success',
  stored: 'secondary',
  queued: 'warning',
  failed: 'destructive',
};

const PAGE = 20;

/** What went out and what failed (the API keeps the latest 200). */
export function EmailLogPanel({ emails, isPending, error }: { emails: EmailLogEntry[] | undefined; isPending: boolean; error: Error | null }) {
  const [onlyFailed, setOnlyFailed] = useState(false);
  const [shown, setShown] = useState(PAGE);
  const failed = emails?.filter((e) => e.status === 'failed').length ?? 0;
  const rows = (onlyFailed ? emails?.filter((e) => e.status === 'failed') : emails) ?? [];

  return (
    <section aria-labelledby="email-log-heading" className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex items-center gap-3">
          <h2 id="email-log-heading" className="text-xl font-semibold text-brand-800">
            Email Log
          </h2>
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
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-4 text-sm text-red-800">
          Failed to load the e-mail log: {errorMessage(error, 'Please try again.')}
        </p>
      ) : rows.length === 0 ? (
        <p className="text-sm text-slate-600">{onlyFailed ? 'No failed e-mails.' : 'No e-mails sent yet.'}</p>
      ) : (
        <>
        {/* Phones get one compact block per e-mail; a five-column table does not fit 390 px. */}
        <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white md:hidden" aria-label="Email log entries">
          {rows.slice(0, shown).map((e) => (
            <li key={e.id} className="space-y-1 p-3 text-sm">
              <div className="flex items-center justify-between gap-2">
                <span className="text-xs text-slate-600">{formatDateTime(e.createdAt)}</span>
                <Badge variant={statusVariant[e.status]}>{e.status}</Badge>
              </div>
              <p className="break-all font-medium text-slate-900">{e.to}</p>
              <p className="text-slate-800">{e.subject}</p>
              <p className="text-xs text-slate-500">{e.kind}</p>
              {e.error && <p className="text-xs text-red-700">{e.error}</p>}
            </li>
          ))}
        </ul>
        <div className="hidden rounded-lg border border-slate-200 bg-white md:block">
          <Table aria-label="Email log">
            <TableHeader>
              <tr>
                <TableHead>Time</TableHead>
                <TableHead>To</TableHead>
                <TableHead>Subject</TableHead>
                <TableHead>Kind</TableHead>
                <TableHead>Status</TableHead>
              </tr>
            </TableHeader>
            <TableBody>
              {rows.slice(0, shown).map((e) => (
                <TableRow key={e.id} data-testid="email-log-row">
                  <TableCell className="whitespace-nowrap text-xs text-slate-600">{formatDateTime(e.createdAt)}</TableCell>
                  <TableCell className="break-all">{e.to}</TableCell>
                  <TableCell className="min-w-48">{e.subject}</TableCell>
                  <TableCell className="whitespace-nowrap text-xs">{e.kind}</TableCell>
                  <TableCell>
                    <Badge variant={statusVariant[e.status]}>{e.status}</Badge>
                    {e.error && <p className="mt-1 max-w-xs text-xs text-red-700">{e.error}</p>}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
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
