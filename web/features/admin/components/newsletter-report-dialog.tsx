import { Button } from '../../../components/ui/button';
import { Dialog, DialogActions, DialogLoadState } from '../../../components/ui/dialog';
import { toast } from '../../../components/ui/use-toast';
import { errorMessage } from '../../../lib/api';
import { useNewsletterReport, useNewsletterSettings, useSetClickTracking } from '../api/newsletter-import-api';
import { formatDateTime } from '../lib/format';

/**
 * The report of one sent issue (docs/product.md §5.11): recipients and what became of them, and the
 * clicks per link from first-party click tracking, with the owner's switch for that tracking.
 */
export function NewsletterReportDialog({ newsletterId, onClose }: { newsletterId: number | null; onClose: () => void }) {
  const open = newsletterId !== null;
  const report = useNewsletterReport(newsletterId ?? 0, open);
  const settings = useNewsletterSettings(open);
  const setTracking = useSetClickTracking();
  const r = report.data;
  const tracking = settings.data?.clickTracking;

  function toggleTracking() {
    if (tracking === undefined) return;
    setTracking.mutate(!tracking, {
      onSuccess: (answer) => toast({ title: 'Saved', description: answer.message }),
      onError: (error) => toast({ variant: 'destructive', title: 'Error', description: errorMessage(error, 'The setting could not be saved') }),
    });
  }

  const figures: [string, number][] = r
    ? [
        ['Recipients', r.recipients],
        ['Accepted', r.accepted],
        ['Delivered', r.delivered],
        ['Bounced', r.bounced],
        ['Complained', r.complained],
        ['Unsubscribed', r.unsubscribed],
        ['Clicked a link', r.clickers],
      ]
    : [];

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !next && onClose()}
      title={r ? `Report: ${r.subject}` : 'Newsletter Report'}
      description={r ? `Sent ${formatDateTime(r.sentAt)}${r.status === 'sending' ? ' (still sending)' : ''}` : undefined}
      className="sm:max-w-2xl"
    >
      <DialogLoadState query={report} loading="Loading the report..." failure="The report could not be loaded." />
      {r && (
        <div className="space-y-4">
          <dl className="grid grid-cols-2 gap-2 sm:grid-cols-4">
            {figures.map(([label, value]) => (
              <div key={label} className="rounded-md border border-slate-200 p-2">
                <dt className="text-xs text-slate-600">{label}</dt>
                <dd className="text-xl font-bold text-brand-800" data-testid={`report-${label.toLowerCase().replaceAll(' ', '-')}`}>
                  {value.toLocaleString('en-US')}
                </dd>
              </div>
            ))}
          </dl>
          <section aria-labelledby="report-links-heading" className="space-y-2">
            <h3 id="report-links-heading" className="text-sm font-semibold text-slate-900">
              Clicks per link (each recipient counted once per link)
            </h3>
            {r.links.length === 0 ? (
              <p className="text-sm text-slate-600">This issue has no links.</p>
            ) : (
              <table className="w-full text-left text-sm">
                <thead>
                  <tr className="border-b border-slate-200 text-slate-600">
                    <th scope="col" className="py-1 pr-2 font-medium">
                      Link
                    </th>
                    <th scope="col" className="py-1 text-right font-medium">
                      Clicks
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {r.links.map((link, i) => (
                    <tr key={i} className="border-b border-slate-100" data-testid="report-link">
                      <td className="break-all py-1 pr-2 text-slate-800">{link.url}</td>
                      <td className="py-1 text-right font-semibold text-slate-900">{link.clicks.toLocaleString('en-US')}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </section>
          <div className="flex flex-col gap-2 rounded-md border border-slate-200 p-3 text-sm sm:flex-row sm:items-center sm:justify-between">
            <p className="text-slate-700">
              Click tracking is <strong>{tracking === undefined ? '...' : tracking ? 'on' : 'off'}</strong>: links go through this site and count once per
              recipient. No open pixel is ever used.
            </p>
            <Button variant="outline" size="sm" className="shrink-0 whitespace-nowrap" onClick={toggleTracking} disabled={tracking === undefined || setTracking.isPending}>
              {tracking ? 'Turn tracking off' : 'Turn tracking on'}
            </Button>
          </div>
        </div>
      )}
      <DialogActions cancel="Done" onCancel={onClose} />
    </Dialog>
  );
}
