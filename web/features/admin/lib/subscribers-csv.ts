// The subscriber export of docs/product.md §6.3, built in the browser from the loaded list with the
// admin's one CSV writer (csv.ts). Pure: no DOM here, so it is unit-tested in Node
// (tests/web/subscribers-csv.test.ts).

import { buildCsv, csvFileName, csvFirmDateTime, csvFirmDay } from './csv';

export { neutraliseFormula, quoteCsvField } from './csv';

export interface CsvSubscriber {
  email: string;
  name: string | null;
  subscriptionDate: string;
  active: string;
  /** Set for an address the provider's events suppressed (docs/product.md §6.3). */
  suppressionReason?: 'bounced' | 'complained' | null;
  suppressionDetail?: string | null;
  suppressedAt?: string | null;
}

/** The spec's four columns first (Status stays Active / Inactive), then why an address gets no mail. */
export const SUBSCRIBER_CSV_COLUMNS = ['Email', 'Name', 'Subscription Date', 'Status', 'Suppression', 'Suppression Detail', 'Suppressed At'] as const;

const suppressionLabel = { bounced: 'Bounced', complained: 'Complained' } as const;

/** The whole CSV, header first, CRLF line breaks (RFC 4180), every subscriber included. */
export function buildSubscribersCsv(subscribers: readonly CsvSubscriber[]): string {
  return buildCsv(
    SUBSCRIBER_CSV_COLUMNS,
    subscribers.map((s) => [
      s.email,
      s.name,
      csvFirmDay(s.subscriptionDate),
      s.active === 'true' ? 'Active' : 'Inactive',
      s.suppressionReason ? suppressionLabel[s.suppressionReason] : '',
      s.suppressionDetail,
      s.suppressedAt ? csvFirmDateTime(s.suppressedAt) : '',
    ]),
  );
}

/** subscribers-YYYY-MM-DD.csv with the local calendar date of `now`. */
export function subscribersCsvFileName(now = new Date()): string {
  return csvFileName('subscribers', now);
}
