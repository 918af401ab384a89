import { Loader2 } from 'lucide-react';
import { useState, type ChangeEvent } from 'react';
import { readSubscriberCsv } from '#core/subscriber-import-csv';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Label } from '../../../components/ui/input';
import { toast } from '../../../components/ui/use-toast';
import { errorMessage } from '../../../lib/api';
import { type ImportSummary, stageImport, useRunImport } from '../api/newsletter-import-api';

type Step = { name: 'choose' } | { name: 'checking'; sent: number; total: number } | { name: 'review'; summary: ImportSummary } | { name: 'done'; summary: ImportSummary };

const reasonText = { bounced: 'bounced', complained: 'marked our mail as spam', unsubscribed: 'unsubscribed' } as const;

/**
 * Import subscribers from a CSV file (docs/product.md §5.10): the file is read here, its rows are
 * checked by the server (the dry run), and nothing changes until the administrator confirms the
 * people's consent and says whether it was already given.
 */
export function ImportSubscribersDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const [step, setStep] = useState<Step>({ name: 'choose' });
  const [consent, setConsent] = useState<'given' | 'confirm' | null>(null);
  const [confirmed, setConfirmed] = useState(false);
  const [imported, setImported] = useState(0);
  const run = useRunImport();

  function close(next: boolean) {
    if (!next && (step.name === 'checking' || run.isPending)) return; // the import finishes first
    if (!next) {
      setStep({ name: 'choose' });
      setConsent(null);
      setConfirmed(false);
      setImported(0);
      run.reset();
    }
    onOpenChange(next);
  }

  async function chooseFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const parsed = readSubscriberCsv(await file.text());
    if (!parsed.ok) {
      toast({ variant: 'destructive', title: 'Error', description: parsed.message });
      return;
    }
    setStep({ name: 'checking', sent: 0, total: parsed.rows.length });
    try {
      const summary = await stageImport(file.name.slice(0, 200), parsed.rows, (sent) => setStep({ name: 'checking', sent, total: parsed.rows.length }));
      setStep({ name: 'review', summary });
    } catch (error) {
      setStep({ name: 'choose' });
      toast({ variant: 'destructive', title: 'Error', description: errorMessage(error, 'The file could not be checked. Please try again.') });
    }
  }

  function startImport(summary: ImportSummary) {
    if (!consent || !confirmed) return;
    run.mutate(
      { id: summary.id, consent, onProgress: setImported },
      {
        onSuccess: (done) => {
          setStep({ name: 'done', summary: done });
          toast({ title: 'Import complete', description: `${done.importedCount} subscribers imported` });
        },
        onError: (error) => toast({ variant: 'destructive', title: 'Error', description: errorMessage(error, 'The import stopped. Start it again to continue.') }),
      },
    );
  }

  return (
    <Dialog
      open={open}
      onOpenChange={close}
      title="Import Subscribers"
      description="A CSV file with a header row and an Email column (Mailchimp, Constant Contact and listmonk exports work as they are)."
      className="sm:max-w-2xl"
    >
      {step.name === 'choose' && (
        <div className="space-y-2">
          <Label htmlFor="import-file">CSV file</Label>
          <input
            id="import-file"
            type="file"
            accept=".csv,text/csv"
            onChange={(e) => void chooseFile(e)}
            aria-describedby="import-file-hint"
            className="block w-full text-sm text-slate-700 file:mr-3 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-3 file:py-2 file:text-sm file:font-medium"
          />
          <p id="import-file-hint" className="text-xs text-slate-600">
            Columns: Email, and optionally Name (or First and Last Name), an opt-in date (such as Subscription Date, 2024-03-01 or 3/1/2024: it becomes their Subscription Date) and a source. Nothing is imported before you review the dry run.
          </p>
          <div className="flex justify-end">
            <Button variant="outline" onClick={() => close(false)}>
              Cancel
            </Button>
          </div>
        </div>
      )}

      {step.name === 'checking' && (
        <p role="status" className="flex items-center gap-2 text-sm text-slate-700">
          <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />
          Checking {step.sent.toLocaleString('en-US')} of {step.total.toLocaleString('en-US')} rows...
        </p>
      )}

      {(step.name === 'review' || step.name === 'done') && <DryRun summary={step.summary} />}

      {step.name === 'review' && (
        <form
          className="space-y-4"
          onSubmit={(e) => {
            e.preventDefault();
            startImport(step.summary);
          }}
        >
          <fieldset className="space-y-2">
            <legend className="text-sm font-medium text-slate-900">Consent</legend>
            <label className="flex items-start gap-2 text-sm text-slate-800">
              <input type="radio" name="consent" value="given" checked={consent === 'given'} onChange={() => setConsent('given')} className="mt-1" />
              <span>Consent already given: add them as active subscribers, with no confirmation e-mail</span>
            </label>
            <label className="flex items-start gap-2 text-sm text-slate-800">
              <input type="radio" name="consent" value="confirm" checked={consent === 'confirm'} onChange={() => setConsent('confirm')} className="mt-1" />
              <span>Ask each to confirm: send each the double opt-in e-mail (within the daily limit on confirmation e-mails); only those who confirm become active</span>
            </label>
          </fieldset>
          <label className="flex items-start gap-2 text-sm text-slate-800">
            <input type="checkbox" checked={confirmed} onChange={(e) => setConfirmed(e.target.checked)} className="mt-1" />
            <span>I confirm that these people agreed to receive our newsletter</span>
          </label>
          {run.isPending && (
            <p role="status" className="flex items-center gap-2 text-sm text-slate-700">
              <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />
              Importing... {imported.toLocaleString('en-US')} of {step.summary.counts.new.toLocaleString('en-US')}
            </p>
          )}
          <div className="flex flex-wrap justify-end gap-2">
            <Button variant="outline" onClick={() => close(false)} disabled={run.isPending}>
              Cancel
            </Button>
            <Button type="submit" disabled={!consent || !confirmed || step.summary.counts.new === 0 || run.isPending}>
              {run.isPending && <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />}
              Import {step.summary.counts.new.toLocaleString('en-US')} Subscribers
            </Button>
          </div>
        </form>
      )}

      {step.name === 'done' && (
        <div className="space-y-3">
          <p role="status" className="rounded-md border border-emerald-200 bg-emerald-50 p-3 text-sm text-emerald-900">
            {step.summary.importedCount.toLocaleString('en-US')} subscribers imported
            {step.summary.consent === 'confirm' ? '; each gets a confirmation e-mail and becomes active once they confirm.' : ' as active subscribers.'} Recorded:{' '}
            {step.summary.fileName}, confirmed by {step.summary.confirmedBy}.
          </p>
          <div className="flex justify-end">
            <Button onClick={() => close(false)}>Done</Button>
          </div>
        </div>
      )}
    </Dialog>
  );
}

function DryRun({ summary }: { summary: ImportSummary }) {
  const { counts } = summary;
  const rows: [string, number, string][] = [
    ['New', counts.new, 'import-new'],
    ['Already subscribed', counts.alreadySubscribed, 'import-existing'],
    ['Suppressed (never re-activated)', counts.suppressed, 'import-suppressed'],
    ['Duplicates in the file', counts.duplicates, 'import-duplicates'],
    ['Invalid', counts.invalid, 'import-invalid'],
  ];
  return (
    <section aria-labelledby="dry-run-heading" className="space-y-3">
      <h3 id="dry-run-heading" className="text-sm font-semibold text-slate-900">
        Dry run: {summary.fileName}, {summary.rows.toLocaleString('en-US')} rows
      </h3>
      <dl className="grid grid-cols-2 gap-2 sm:grid-cols-5">
        {rows.map(([label, value, testId]) => (
          <div key={label} className="rounded-md border border-slate-200 p-2">
            <dt className="text-xs text-slate-600">{label}</dt>
            <dd className="text-xl font-bold text-brand-800" data-testid={testId}>
              {value.toLocaleString('en-US')}
            </dd>
          </div>
        ))}
      </dl>
      <LineList title="Invalid rows" total={counts.invalid} items={summary.invalid.map((r) => `Line ${r.line}: ${r.email || '(empty)'}: ${r.problem}`)} />
      <LineList title="Duplicates in the file" total={counts.duplicates} items={summary.duplicates.map((r) => `Line ${r.line}: ${r.email} (already earlier in the file)`)} />
      <LineList title="Suppressed" total={counts.suppressed} items={summary.suppressed.map((r) => `Line ${r.line}: ${r.email}: ${reasonText[r.reason]}`)} />
    </section>
  );
}

function LineList({ title, total, items }: { title: string; total: number; items: string[] }) {
  if (total === 0) return null;
  return (
    <details className="rounded-md border border-slate-200 p-2 text-sm">
      <summary className="cursor-pointer font-medium text-slate-800">
        {title} ({total.toLocaleString('en-US')})
      </summary>
      <ul className="mt-2 max-h-40 space-y-1 overflow-y-auto text-slate-700">
        {items.map((item) => (
          <li key={item}>{item}</li>
        ))}
        {total > items.length && <li className="text-slate-500">and {(total - items.length).toLocaleString('en-US')} more</li>}
      </ul>
    </details>
  );
}
