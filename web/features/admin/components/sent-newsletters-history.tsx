import { useState } from 'react';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardHeader } from '../../../components/ui/card';
import type { SentNewsletter } from '../api/admin-api';
import { formatDateTime } from '../lib/format';
import { SectionHeading } from './admin-page-parts';
import { NewsletterFrame } from './newsletter-frame';
import { NewsletterReportDialog } from './newsletter-report-dialog';
import { SendingProgress } from './sending-progress';

/** docs/product.md §6.3: subject, sent time, recipient count and the rendered HTML, newest first. */
export function SentNewslettersHistory({ newsletters }: { newsletters: SentNewsletter[] | undefined }) {
  const [reportOf, setReportOf] = useState<number | null>(null);
  return (
    <section aria-labelledby="history-heading" className="space-y-4">
      <SectionHeading id="history-heading">Sent Newsletters History</SectionHeading>
      {!newsletters || newsletters.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 p-8 text-center text-slate-600">No newsletters have been sent yet</p>
      ) : (
        <ul className="space-y-4">
          {newsletters.map((n, index) => (
            <li key={n.id}>
              <Card data-testid="sent-newsletter">
                <CardHeader className="pb-3">
                  <div className="flex flex-wrap items-start justify-between gap-2">
                    <h3 className="font-semibold text-slate-900">{n.subject}</h3>
                    <div className="flex items-center gap-2">
                      {n.status === 'sending' ? <Badge variant="warning">Sending</Badge> : <Badge variant="success">Sent</Badge>}
                      <Button variant="outline" size="sm" onClick={() => setReportOf(n.id)} aria-label={`Report: ${n.subject}`}>
                        Report
                      </Button>
                    </div>
                  </div>
                  <p className="text-sm text-slate-600">
                    Sent {formatDateTime(n.sentAt)} · {n.recipientCount} recipients
                    {n.failedCount > 0 && ` · ${n.failedCount} failed`}
                  </p>
                </CardHeader>
                <CardContent className="space-y-3">
                  {n.status === 'sending' && <SendingProgress newsletter={n} />}
                  {/* The newest is open; older ones load their content only when opened. */}
                  <details open={index === 0}>
                    <summary className="cursor-pointer text-sm font-medium text-brand-700">Show content</summary>
                    <NewsletterFrame html={n.content} title={`Newsletter: ${n.subject}`} className="mt-3 h-96" lazy={index > 0} />
                  </details>
                </CardContent>
              </Card>
            </li>
          ))}
        </ul>
      )}
      <NewsletterReportDialog newsletterId={reportOf} onClose={() => setReportOf(null)} />
    </section>
  );
}
