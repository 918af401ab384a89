import { useEffect, useState } from 'react';
import { fetchClosedDays, type ClosedDays } from './api/appointments';

// The firm's closed days as the booking calendar needs them (docs/product.md §3), shared by the
// booking form and the reschedule page: read for the month on show and for each month the visitor
// moves to, with the days that have no time left ("Fully booked"). Unknown (not yet read, or the read failed): nothing more is disabled; the server still
// refuses a closed day.

/** A calendar Date (local midnight, as the calendar gives it) as YYYY-MM-DD. */
export const toIsoDate = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

/** A YYYY-MM-DD date as the calendar's local-midnight Date (toIsoDate's inverse). */
export const fromIsoDate = (text: string) => {
  const [y, m, d] = text.split('-').map(Number);
  return new Date(y, m - 1, d);
};

/** The six weeks a month view shows (weeks start on Sunday, fixedWeeks), as a YYYY-MM-DD range. */
function visibleRange(month: Date): { from: string; to: string } {
  const first = new Date(month.getFullYear(), month.getMonth(), 1);
  const start = new Date(first.getFullYear(), first.getMonth(), 1 - first.getDay());
  return { from: toIsoDate(start), to: toIsoDate(new Date(start.getFullYear(), start.getMonth(), start.getDate() + 41)) };
}

const weekdayNames = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;

export interface ClosedDaysView {
  /** Blocked dates read so far, with their reasons. */
  blocked: Record<string, string | null>;
  /** The blocked dates, for the calendar's closedDates. */
  dates: string[];
  /** Open days with no time left (every slot taken by bookings or the firm's busy time), read so far, YYYY-MM-DD. */
  fullDates: string[];
  /** Weekdays (0 = Sunday) that offer no slot, for the calendar's closedWeekdays. */
  weekdays: number[];
  /** The slots a weekday (0 = Sunday) offers; undefined until the offer is known. */
  offerOn: (day: number) => readonly string[] | undefined;
  /** The first and last days the booking rules leave open (minimum notice, horizon), YYYY-MM-DD; undefined until read. */
  firstDay?: string;
  lastDay?: string;
}

/** Closed days around `month` (null until the calendar knows which month it shows). */
export function useClosedDays(month: Date | null): ClosedDaysView {
  const [known, setKnown] = useState<{ blocked: Record<string, string | null>; full: string[]; weekdays: ClosedDays['weekdays'] | null; firstDay?: string; lastDay?: string }>({
    blocked: {},
    full: [],
    weekdays: null,
  });
  const rangeKey = month ? `${month.getFullYear()}-${month.getMonth()}` : null;
  useEffect(() => {
    if (!month) return;
    let live = true;
    const { from, to } = visibleRange(month);
    fetchClosedDays(from, to).then(
      (answer) => {
        if (!live || !Array.isArray(answer?.blockedDates) || typeof answer.weekdays !== 'object') return;
        // This range's answer replaces what was known of it (a day unblocked since is open again).
        setKnown((previous) => ({
          blocked: Object.fromEntries([
            ...Object.entries(previous.blocked).filter(([date]) => date < from || date > to),
            ...answer.blockedDates.map((b) => [b.date, b.reason] as const),
          ]),
          // Likewise the full days (a booking cancelled since frees its day).
          full: [...previous.full.filter((date) => date < from || date > to), ...(Array.isArray(answer.fullDays) ? answer.fullDays : [])],
          weekdays: answer.weekdays,
          firstDay: answer.firstDay,
          lastDay: answer.lastDay,
        }));
      },
      () => {},
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `rangeKey` names the month (a new Date object every render)
  }, [rangeKey]);
  const offers = known.weekdays as Record<string, readonly string[]> | null;
  const offerOn = (day: number) => offers?.[weekdayNames[day]];
  return {
    blocked: known.blocked,
    dates: Object.keys(known.blocked),
    fullDates: known.full,
    weekdays: offers ? [1, 2, 3, 4, 5].filter((day) => offerOn(day)?.length === 0) : [],
    offerOn,
    firstDay: known.firstDay,
    lastDay: known.lastDay,
  };
}
