// The subscriber export of docs/product.md §6.3, built in the browser from the loaded list with the
// admin's one CSV writer (csv.ts). Pure: no DOM here, so it is unit-tested in Node
// (tests/newsletter/subscribers-csv.web.test.ts).

import { buildCsv, csvFileName, csvFirmDay } from './csv';

export { neutraliseFormula, quoteCsvField } from './csv';

export interface CsvSubscriber {
  email: string;
  name: string | null;
  subscriptionDate: string;
  active: string;
  /** Set for an address the provider's events suppressed (docs/product.md §5.8): it is Inactive. */
  suppressionReason?: 'bounced' | 'complained' | null;
}

/** Exactly the four columns of docs/product.md §6.3; why an address gets no mail shows in the table only. */
export const SUBSCRIBER_CSV_COLUMNS = ['Email', 'Name', 'Subscription Date', 'Status'] as const;

/** Active or Inactive, nothing else: a suppressed address receives nothing, so it is Inactive. */
function subscriberCsvStatus(s: Pick<CsvSubscriber, 'active' | 'suppressionReason'>): 'Active' | 'Inactive' {
  return s.active === 'true' && !s.suppressionReason ? 'Active' : 'Inactive';
}

/** The whole CSV, header first, CRLF line breaks (RFC 4180), every subscriber included. */
export function buildSubscribersCsv(subscribers: readonly CsvSubscriber[]): string {
  return buildCsv(
    SUBSCRIBER_CSV_COLUMNS,
    subscribers.map((s) => [s.email, s.name, csvFirmDay(s.subscriptionDate), subscriberCsvStatus(s)]),
  );
}

/** subscribers-YYYY-MM-DD.csv with the local calendar date of `now`. */
export function subscribersCsvFileName(now = new Date()): string {
  return csvFileName('subscribers', now);
}
