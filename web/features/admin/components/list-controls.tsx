import { ChevronLeft, ChevronRight, Search } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { LIST_PAGE_SIZE } from '#core/schemas/admin-list';
import { Button } from '../../../components/ui/button';
import { Input, Label } from '../../../components/ui/input';

// The search box, filters and pager every searched admin list shares (core/schemas/admin-list.ts).
// What is searched lives in the address (?q=…&page=2&status=…&from=…&to=…), so a reload, the Back
// button or a link a colleague sends opens the same page of the same search. Two lists on one
// screen (the panel's inbox and appointments) keep apart by a `prefix` ("inbox-q", "inbox-page"…).

export interface ListParams {
  q: string;
  page: number;
  status?: string;
  from?: string;
  to?: string;
}

const KEYS = ['q', 'page', 'status', 'from', 'to'] as const;

/**
 * The list's search as the address holds it, and `update` to change it: any change but the page
 * itself goes back to page 1. `query` is what the list's search route takes (empty values left out).
 */
export function useListParams(prefix = '') {
  const [searchParams, setSearchParams] = useSearchParams();
  const key = (name: (typeof KEYS)[number]) => (prefix ? `${prefix}-${name}` : name);
  const read = (name: (typeof KEYS)[number]) => searchParams.get(key(name)) ?? undefined;
  const pageNumber = Number(read('page'));
  const params: ListParams = {
    q: read('q') ?? '',
    page: Number.isInteger(pageNumber) && pageNumber >= 1 ? pageNumber : 1,
    status: read('status') || undefined,
    from: read('from') || undefined,
    to: read('to') || undefined,
  };

  function update(change: Partial<ListParams>) {
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        const merged: ListParams = { ...params, ...change, page: change.page ?? 1 };
        for (const name of KEYS) {
          const value = merged[name];
          if (value === undefined || value === '' || (name === 'page' && value === 1)) next.delete(key(name));
          else next.set(key(name), String(value));
        }
        return next;
      },
      { replace: change.page === undefined },
    );
  }

  const query: Record<string, string> = {};
  if (params.q) query.q = params.q;
  if (params.page > 1) query.page = String(params.page);
  if (params.status) query.status = params.status;
  if (params.from) query.from = params.from;
  if (params.to) query.to = params.to;
  return { params, update, query };
}

/**
 * One search box (submitted with Enter or the Search button), an optional status filter and an
 * optional date range, as a labelled search landmark. `statuses` lists the filter's choices.
 */
export function ListSearch({
  label,
  params,
  onChange,
  placeholder = 'Name, e-mail, phone or text',
  statuses,
  allLabel = 'All',
  dateRange = false,
}: {
  /** What is searched, for the landmark and the box's label, e.g. "Search messages". */
  label: string;
  params: ListParams;
  onChange: (change: Partial<ListParams>) => void;
  placeholder?: string;
  statuses?: { value: string; label: string }[];
  /** The status filter's first choice, no status (e.g. "All but archived" where one status hides rows by default). */
  allLabel?: string;
  dateRange?: boolean;
}) {
  const id = useId();
  const [text, setText] = useState(params.q);
  const [shownQ, setShownQ] = useState(params.q);
  // The address changed under the box (Back, a link): show what is searched now.
  if (shownQ !== params.q) {
    setShownQ(params.q);
    setText(params.q);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    onChange({ q: text.trim() });
  }

  return (
    <form role="search" aria-label={label} onSubmit={submit} className="flex flex-wrap items-end gap-3">
      <div className="min-w-0 flex-1 basis-56">
        <Label htmlFor={`${id}-q`}>{label}</Label>
        <div className="flex gap-2">
          <Input id={`${id}-q`} type="search" value={text} maxLength={200} placeholder={placeholder} onChange={(e) => setText(e.target.value)} />
          {/* Its own width: squeezed by a long search on a page that wraps anywhere, it read "Searc / h". */}
          <Button type="submit" variant="outline" icon={Search} className="shrink-0 whitespace-nowrap">
            Search
          </Button>
        </div>
      </div>
      {statuses && (
        <div>
          <Label htmlFor={`${id}-status`}>Status</Label>
          <select
            id={`${id}-status`}
            value={params.status ?? ''}
            onChange={(e) => onChange({ status: e.target.value || undefined })}
            className="h-10 rounded-md border border-slate-300 bg-white px-3 text-sm text-slate-900 focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/30"
          >
            <option value="">{allLabel}</option>
            {statuses.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
        </div>
      )}
      {dateRange && (
        <>
          <div>
            <Label htmlFor={`${id}-from`}>From</Label>
            <Input id={`${id}-from`} type="date" value={params.from ?? ''} max={params.to} onChange={(e) => onChange({ from: e.target.value || undefined })} />
          </div>
          <div>
            <Label htmlFor={`${id}-to`}>To</Label>
            <Input id={`${id}-to`} type="date" value={params.to ?? ''} min={params.from} onChange={(e) => onChange({ to: e.target.value || undefined })} />
          </div>
        </>
      )}
    </form>
  );
}

/**
 * "Showing 51–100 of 10,000" and Previous / Next, for a list of `total` rows shown LIST_PAGE_SIZE
 * at a time; nothing when everything fits on one page and this is page 1.
 */
export function Pager({ label, page, total, onPage }: { label: string; page: number; total: number; onPage: (page: number) => void }) {
  const pages = Math.max(1, Math.ceil(total / LIST_PAGE_SIZE));
  if (pages === 1 && page === 1) return null;
  const first = total === 0 ? 0 : (page - 1) * LIST_PAGE_SIZE + 1;
  const last = Math.min(total, page * LIST_PAGE_SIZE);
  const number = new Intl.NumberFormat('en-US');
  return (
    <nav aria-label={label} className="flex flex-wrap items-center justify-between gap-3 text-sm text-slate-700">
      <p aria-live="polite">
        {first > last ? `No rows on page ${number.format(page)} of ${number.format(pages)}` : `Showing ${number.format(first)}–${number.format(last)} of ${number.format(total)}`}
      </p>
      <div className="flex gap-2">
        <Button variant="outline" size="sm" icon={ChevronLeft} disabled={page <= 1} onClick={() => onPage(Math.min(page - 1, pages))}>
          Previous
        </Button>
        <Button variant="outline" size="sm" disabled={page >= pages} onClick={() => onPage(page + 1)}>
          Next
          <ChevronRight className="h-4 w-4" aria-hidden="true" />
        </Button>
      </div>
    </nav>
  );
}
