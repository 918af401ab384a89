// @vitest-environment happy-dom
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

// Every time in the back office reads on the firm's clock with its zone's label, "Dec 7, 2026,
// 2:05 PM ET" (docs/product.md §6), whatever zone the admin's computer is in: here Tokyo, 14 hours
// ahead of the firm in winter (set before anything formats a date).
process.env.TZ = 'Asia/Tokyo';

const { formatDateTime, formatSlot } = await import('../../web/features/admin/lib/format');
const { formatWhen } = await import('../../web/features/content-admin/conflict');
const { ContentHistory } = await import('../../web/features/content-admin/content-history');
const { renderForm } = await import('../harness/web/form-harness');

/** Intl separates the time from AM/PM with a narrow no-break space; the tests read it as a space. */
const plain = (text: string | null | undefined) => (text ?? '').replace(/\u202f/g, ' ');

const WINTER = '2026-12-07T19:05:00.000Z';
const SUMMER = '2026-07-15T18:05:00.000Z';

describe('back-office times', () => {
  it('runs in a zone that is not the firm’s (the check below would prove nothing otherwise)', () => {
    expect(plain(new Date(WINTER).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' }))).toBe('Dec 8, 2026, 4:05 AM');
  });

  it('shows an instant on the firm’s clock with "ET", in winter and in summer', () => {
    expect(plain(formatDateTime(WINTER))).toBe('Dec 7, 2026, 2:05 PM ET');
    expect(plain(formatDateTime(SUMMER))).toBe('Jul 15, 2026, 2:05 PM ET');
  });

  it('a booking’s slot, a firm wall-clock time, says its zone too', () => {
    expect(formatSlot('10:00 AM')).toBe('10:00 AM ET');
    expect(formatSlot(null)).toBe('No preferred time');
  });

  it('the content screens too (their own formatter is the back office’s)', () => {
    expect(plain(formatWhen(WINTER))).toBe('Dec 7, 2026, 2:05 PM ET');
    expect(formatWhen(null)).toBe('an unknown time');
  });

  it('the content history names who published and when on the firm’s clock, and each change in words', () => {
    const versions = [
      {
        version: 2,
        publishedAt: WINTER,
        publishedBy: 'olga',
        restoredFrom: null,
        changes: [
          { path: 'firm.contact.phoneHref', kind: 'changed' as const, before: 'tel:+17245550142', after: 'tel:+17245550177' },
          { path: 'services.groups.0.services.1.description', kind: 'changed' as const, before: 'Old', after: 'New' },
          { path: 'firm.pager', kind: 'added' as const, after: '555' },
        ],
        moreChanges: 0,
      },
      { version: 1, publishedAt: null, publishedBy: null, restoredFrom: null, changes: [], moreChanges: 0 },
    ];
    renderForm(<ContentHistory versions={versions} />);
    const latest = screen.getAllByTestId('content-version')[0];
    expect(plain(latest.textContent)).toContain('Published by olga on Dec 7, 2026, 2:05 PM ET.');
    const lines = screen.getAllByTestId('history-change').map((li) => li.textContent);
    expect(lines).toEqual([
      'Firm details › Contact › Phone link changed from “tel:+17245550142” to “tel:+17245550177”',
      'Services and prices › Service groups › Group 1 › Services › Service 2 › Description changed from “Old” to “New”',
      'Other field (firm.pager) added “555”',
    ]);
    // The path in code stays for an expert, on pointing at the field.
    expect(screen.getAllByTestId('history-change')[0].querySelector('[title]')?.getAttribute('title')).toBe('firm.contact.phoneHref');
  });
});
