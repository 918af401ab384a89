import { Download, History } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Badge } from '../components/ui/badge';
import { Button, buttonClass } from '../components/ui/button';
import { Card, CardContent } from '../components/ui/card';
import { Input, Label } from '../components/ui/input';
import { TableCell, TableRow, WideTable } from '../components/ui/table';
import { auditActionLabel, auditRecordLabel } from '#core/audit-labels';
import { AUDIT_ACTIONS, AUDIT_CSV_COLUMNS, type AuditAction } from '#core/schemas/audit';
import { useReadFailures } from '../features/admin/api/admin-api';
import { type AuditEntry, type AuditFilterForm, auditExportUrl, useAuditEntries } from '../features/admin/api/audit-api';
import { AdminSpinner, AdminSubPageHeading, LoadFailure, adminScreen } from '../features/admin/components/admin-page-parts';
import { formatDateTime } from '../features/admin/lib/format';
import { isUnauthorized } from '../lib/api';

/** /admin/audit: the audit trail (docs/product.md §6.9), for owners: filter by actor, action and dates; export as CSV. */
export default adminScreen({ title: 'Audit Trail', description: 'Who changed what in the back office' }, AuditTrail);

const INTRO =
  'Every change made in the back office: who, what, which record, when (the firm’s time zone) and from which network. Entries cannot be edited or deleted; they are kept 400 days.';

const EMPTY: AuditFilterForm = { actor: '', action: '', from: '', to: '' };

/** The Action filter's choices in words, alphabetically (the query still carries the code). */
const ACTION_OPTIONS = AUDIT_ACTIONS.map((code) => ({ code, label: auditActionLabel(code) })).sort((a, b) => a.label.localeCompare(b.label, 'en'));

/** Who acted, in words: the two actors that are no account (docs/product.md §6.9) say what they are. */
const ACTOR_WORDS: Record<string, string> = { visitor: 'A visitor (through an e-mailed link)', system: 'The system (scheduled work)' };
const actorWords = (actor: string) => ACTOR_WORDS[actor] ?? actor;

/** An action in words, its code in the title for whoever reads the CSV export. */
function ActionWords({ code }: { code: string }) {
  return <span title={code}>{auditActionLabel(code)}</span>;
}

/** A record in words ("Contact message 12", "User account 3 (Dana Lee)"), its code (`admin-user:3`) in the title. */
function RecordWords({ entry }: { entry: Pick<AuditEntry, 'record' | 'recordName'> }) {
  if (!entry.record) return <>-</>;
  const label = auditRecordLabel(entry.record);
  return <span title={entry.record}>{entry.recordName ? `${label} (${entry.recordName})` : label}</span>;
}

function AuditTrail() {
  const [filter, setFilter] = useState<AuditFilterForm>(EMPTY);
  const entries = useAuditEntries(filter);
  useReadFailures(entries, 'Failed to load the audit trail. Please try again.');
  const rows = entries.data?.pages.flatMap((p) => p.entries) ?? [];

  return (
    <section className="mx-auto max-w-7xl space-y-6 px-4 py-10 [overflow-wrap:anywhere] sm:px-6 lg:px-8">
      <AdminSubPageHeading title="Audit Trail" intro={INTRO} />
      <AuditFilterBar onApply={setFilter} exportUrl={auditExportUrl(filter)} />
      {entries.isPending ? (
        <AdminSpinner />
      ) : entries.isError ? (
        isUnauthorized(entries.error) ? null : (
          <LoadFailure what="the audit trail" error={entries.error} />
        )
      ) : rows.length === 0 ? (
        <Card>
          <CardContent className="text-center" padding="px-6 py-12">
            <History className="mx-auto mb-3 h-10 w-10 text-slate-400" aria-hidden="true" />
            <p className="text-lg font-medium text-slate-800">No entries match.</p>
          </CardContent>
        </Card>
      ) : (
        <>
          <AuditList rows={rows} />
          {entries.hasNextPage && (
            <Button variant="outline" onClick={() => void entries.fetchNextPage()} disabled={entries.isFetchingNextPage}>
              {entries.isFetchingNextPage ? 'Loading...' : 'Show older entries'}
            </Button>
          )}
        </>
      )}
    </section>
  );
}

/** The filter: applied on submit, so typing a name does not read the trail at every key. */
function AuditFilterBar({ onApply, exportUrl }: { onApply: (filter: AuditFilterForm) => void; exportUrl: string }) {
  const id = useId();
  const [form, setForm] = useState<AuditFilterForm>(EMPTY);
  const set = (field: keyof AuditFilterForm) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [field]: e.target.value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply(form);
  };
  return (
    <form onSubmit={submit} aria-label="Filter the audit trail" className="grid gap-3 rounded-lg border border-slate-200 bg-white p-4 sm:grid-cols-2 lg:grid-cols-[1fr_1fr_auto_auto_auto]">
      <div>
        <Label htmlFor={`${id}-actor`}>Actor</Label>
        <Input id={`${id}-actor`} value={form.actor} onChange={set('actor')} maxLength={100} placeholder="Username" autoComplete="off" />
      </div>
      <div>
        <Label htmlFor={`${id}-action`}>Action</Label>
        <select
          id={`${id}-action`}
          value={form.action}
          onChange={(e) => setForm((f) => ({ ...f, action: e.target.value as AuditAction | '' }))}
          className="block h-10 w-full rounded-md border border-slate-300 bg-white px-3 text-sm text-slate-900 focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/30"
        >
          <option value="">Any action</option>
          {ACTION_OPTIONS.map(({ code, label }) => (
            <option key={code} value={code}>
              {label}
            </option>
          ))}
        </select>
      </div>
      <div>
        <Label htmlFor={`${id}-from`}>From</Label>
        <Input id={`${id}-from`} type="date" value={form.from} onChange={set('from')} max={form.to || undefined} />
      </div>
      <div>
        <Label htmlFor={`${id}-to`}>To</Label>
        <Input id={`${id}-to`} type="date" value={form.to} onChange={set('to')} min={form.from || undefined} />
      </div>
      <div className="flex flex-wrap items-end gap-2 sm:col-span-2 lg:col-span-1">
        <Button type="submit">Apply</Button>
        <a className={buttonClass('outline')} href={exportUrl} download>
          <Download className="h-4 w-4" aria-hidden="true" />
          Export CSV
        </a>
      </div>
    </form>
  );
}

/** The outcome, with how many events the entry counts when more than one (failed sign-ins per network and hour). */
function OutcomeBadge({ entry }: { entry: AuditEntry }) {
  const times = entry.count > 1 ? ` × ${entry.count}` : '';
  return entry.outcome === 'failure' ? <Badge variant="destructive">failure{times}</Badge> : <span className="text-slate-700">success{times}</span>;
}

/** The entries: a block per entry on phones, a table from md up (the columns of the CSV but the actor's id). */
function AuditList({ rows }: { rows: AuditEntry[] }) {
  return (
    <>
      <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white md:hidden" aria-label="Audit entries">
        {rows.map((e) => (
          <li key={e.id} className="space-y-1 p-3 text-sm" data-testid="audit-item">
            <p className="font-medium text-slate-900">
              <ActionWords code={e.action} /> <OutcomeBadge entry={e} />
            </p>
            <p className="text-slate-700">
              {actorWords(e.actor)}
              {e.record && (
                <>
                  {' · '}
                  <RecordWords entry={e} />
                </>
              )}
            </p>
            <p className="text-xs text-slate-600">
              {formatDateTime(e.at)}
              {e.network && <> · {e.network}</>}
            </p>
          </li>
        ))}
      </ul>
      <WideTable label="Audit entries" columns={['Time', 'Actor', 'Action', 'Record', 'Outcome', 'Network']}>
        {rows.map((e) => (
          <TableRow key={e.id} data-testid="audit-row">
            <TableCell className="whitespace-nowrap">{formatDateTime(e.at)}</TableCell>
            <TableCell className="break-words">{actorWords(e.actor)}</TableCell>
            <TableCell>
              <ActionWords code={e.action} />
            </TableCell>
            <TableCell>
              <RecordWords entry={e} />
            </TableCell>
            <TableCell>
              <OutcomeBadge entry={e} />
            </TableCell>
            <TableCell className="break-all">{e.network ?? '-'}</TableCell>
          </TableRow>
        ))}
      </WideTable>
      <p className="text-xs text-slate-600">
        The CSV export has the columns {AUDIT_CSV_COLUMNS.join(', ')}, with each action and record by its code (shown here when you point at it).
      </p>
    </>
  );
}
