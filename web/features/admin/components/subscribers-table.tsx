import { ChevronLeft, ChevronRight, Search } from 'lucide-react';
import { useDeferredValue, useMemo, useState } from 'react';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { TableCell, TableRow, WideTable } from '../../../components/ui/table';
import type { Subscriber } from '../api/admin-api';
import { formatDate } from '../lib/format';

// The list can hold tens of thousands of rows; the DOM only ever holds one page of them.
export const SUBSCRIBERS_PER_PAGE = 50;

const inactiveReason: Record<string, string> = { pending: 'awaiting confirmation', unsubscribed: 'unsubscribed' };

/** docs/product.md §6.3: Email, Name (a dash when empty), Subscription Date, Status (Active or Inactive). */
export function SubscribersTable({ subscribers }: { subscribers: Subscriber[] }) {
  const [query, setQuery] = useState('');
  const [page, setPage] = useState(0);
  const deferredQuery = useDeferredValue(query.trim().toLowerCase());

  const filtered = useMemo(
    () =>
      deferredQuery
        ? subscribers.filter((s) => s.email.toLowerCase().includes(deferredQuery) || (s.name ?? '').toLowerCase().includes(deferredQuery))
        : subscribers,
    [subscribers, deferredQuery],
  );
  const pageCount = Math.max(1, Math.ceil(filtered.length / SUBSCRIBERS_PER_PAGE));
  const current = Math.min(page, pageCount - 1);
  const first = current * SUBSCRIBERS_PER_PAGE;
  const rows = filtered.slice(first, first + SUBSCRIBERS_PER_PAGE);

  return (
    <div className="space-y-3">
      <div className="relative max-w-sm">
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
      {/* Phones: one block per subscriber (four columns do not fit 390 px). */}
      <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white md:hidden" aria-label="Subscriber list">
        {rows.length === 0 ? (
          <li className="p-6 text-center text-sm text-slate-600">{subscribers.length === 0 ? 'No subscribers yet' : 'No subscribers match your search'}</li>
        ) : (
          rows.map((s) => {
            const active = s.active === 'true';
            const reason = !active && s.status ? inactiveReason[s.status] : undefined;
            return (
              <li key={s.id} className="space-y-1 p-3 text-sm" data-testid="subscriber-item">
                <div className="flex items-start justify-between gap-2">
                  <p className="min-w-0 break-all font-medium text-slate-900">{s.email}</p>
                  <Badge variant={active ? 'success' : 'secondary'} title={reason}>
                    {active ? 'Active' : 'Inactive'}
                  </Badge>
                </div>
                <p className="text-slate-700">{s.name || '-'}</p>
                <p className="text-xs text-slate-500">
                  Subscribed {formatDate(s.subscriptionDate)}
                  {reason && ` · ${reason}`}
                </p>
              </li>
            );
          })
        )}
      </ul>
      <WideTable label="Subscribers" columns={['Email', 'Name', 'Subscription Date', 'Status']}>
        {rows.length === 0 ? (
          <tr>
            <TableCell colSpan={4} className="py-8 text-center text-slate-600">
              {subscribers.length === 0 ? 'No subscribers yet' : 'No subscribers match your search'}
            </TableCell>
          </tr>
        ) : (
          rows.map((s) => {
            const active = s.active === 'true';
            const reason = !active && s.status ? inactiveReason[s.status] : undefined;
            return (
              <TableRow key={s.id} data-testid="subscriber-row">
                <TableCell className="break-all font-medium">{s.email}</TableCell>
                <TableCell>{s.name || '-'}</TableCell>
                <TableCell className="whitespace-nowrap">{formatDate(s.subscriptionDate)}</TableCell>
                <TableCell>
                  <Badge variant={active ? 'success' : 'secondary'} title={reason}>
                    {active ? 'Active' : 'Inactive'}
                  </Badge>
                  {reason && <span className="ml-2 text-xs text-slate-500">{reason}</span>}
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
            <Button variant="outline" size="sm" onClick={() => setPage(current - 1)} disabled={current === 0}>
              <ChevronLeft className="h-4 w-4" aria-hidden="true" />
              Previous
            </Button>
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
    </div>
  );
}
