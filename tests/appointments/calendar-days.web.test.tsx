// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { BookingCalendar } from '../../web/features/booking/components/booking-calendar';
import { addDays, dayCell, firmDay, isWeekday, monthsBetween, weekdayFrom, weekdayOf } from '../harness/calendar-days';

// The date helpers every date-picking test uses (tests/harness/calendar-days.ts), checked over the
// real booking calendar in a month that begins on each of the seven weekdays, and over the days
// that broke such helpers before: a month's first grid cell (December 2026), the DST changes, the
// year's end (docs/operations.md "Tests on every day of the year").

afterEach(cleanup);

/** The first day of a month that begins on each weekday, Sunday first. */
const monthsBeginningOn = ['2026-11-01', '2027-02-01', '2027-06-01', '2027-09-01', '2027-04-01', '2027-01-01', '2027-05-01'];

const localMidnight = (day: string) => {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(y, m - 1, d);
};

/** The days of the month that begins on `first`. */
const daysOfMonth = (first: string) => {
  const days: string[] = [];
  for (let day = first; day.slice(0, 7) === first.slice(0, 7); day = addDays(day, 1)) days.push(day);
  return days;
};

describe('a day found by its date in the booking calendar', () => {
  it.each(monthsBeginningOn.map((first, weekday) => [first, weekday] as const))('a month beginning %s (weekday %i)', (first, weekday) => {
    expect(weekdayOf(first)).toBe(weekday);
    // The calendar opens on the month of the firm's today: here, the month's first day.
    const { container } = render(<BookingCalendar today={localMidnight(first)} selected={undefined} onSelect={() => {}} labelledBy="x" />);
    const grid = screen.getByRole('grid');
    const days = daysOfMonth(first);
    for (const day of days) {
      const cells = container.querySelectorAll(dayCell(day));
      expect(cells, day).toHaveLength(1);
      const cell = cells[0] as HTMLTableCellElement;
      // In its own week row, in its weekday's column; shown, with its button, enabled on a weekday.
      expect(cell.cellIndex, day).toBe(weekdayOf(day));
      expect(cell.hasAttribute('data-hidden'), day).toBe(false);
      expect(cell.querySelector('button')?.disabled, day).toBe(!isWeekday(day));
    }
    // What broke the suite on 1 December 2026: the grid's first cell is the month's first day only
    // in a month that begins on a Sunday; otherwise it is the previous month's day, rendered hidden.
    const firstCell = grid.querySelector('td[data-day]')!;
    if (weekday === 0) expect(firstCell.getAttribute('data-day')).toBe(first);
    else expect([firstCell.getAttribute('data-day'), firstCell.hasAttribute('data-hidden')]).toEqual([addDays(first, -weekday), true]);
    // The next month's first days, outside this month, never match a day of it.
    const next = addDays(days.at(-1)!, 1);
    expect(container.querySelectorAll(dayCell(next))).toHaveLength(0);
  });
});

describe('calendar arithmetic', () => {
  it('adds days across months, years and leap days', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2027-01-01', -1)).toBe('2026-12-31');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2027-02-28', 1)).toBe('2027-03-01');
    expect(addDays('2026-11-30', 31)).toBe('2026-12-31');
  });

  it("counts the firm's days, not 24-hour steps, across both DST changes and the year's end", () => {
    // 1 November 2026 has 25 hours in New York: at 11:30 PM, 24 hours on is still that day.
    expect(firmDay(0, new Date('2026-11-02T04:30:00Z'))).toBe('2026-11-01');
    expect(firmDay(1, new Date('2026-11-02T04:30:00Z'))).toBe('2026-11-02');
    expect(firmDay(-1, new Date('2026-11-02T04:30:00Z'))).toBe('2026-10-31');
    // 14 March 2027 has 23 hours: at 12:30 AM, 24 hours on is two days later.
    expect(firmDay(1, new Date('2027-03-14T05:30:00Z'))).toBe('2027-03-15');
    expect(firmDay(0, new Date('2027-03-14T05:30:00Z'))).toBe('2027-03-14');
    // 31 December at 4:30 PM New York (21:30 UTC): tomorrow is the next year.
    expect(firmDay(0, new Date('2026-12-31T21:30:00Z'))).toBe('2026-12-31');
    expect(firmDay(1, new Date('2026-12-31T21:30:00Z'))).toBe('2027-01-01');
    // At 8 PM New York it is the next day in UTC; the firm's day is still today.
    expect(firmDay(0, new Date('2027-01-01T01:00:00Z'))).toBe('2026-12-31');
  });

  it('knows the weekdays and the months a visitor turns', () => {
    expect(['2026-12-05', '2026-12-06', '2026-12-07'].map(weekdayOf)).toEqual([6, 0, 1]);
    expect(['2026-12-05', '2026-12-06', '2026-12-07'].map(isWeekday)).toEqual([false, false, true]);
    expect(monthsBetween('2026-12-31', '2027-01-01')).toBe(1);
    expect(monthsBetween('2026-12-07', '2026-12-31')).toBe(0);
    expect(monthsBetween('2026-11-15', '2027-02-01')).toBe(3);
    // A weekend day moves to the Monday after it, across a month's end too.
    expect(['2026-12-04', '2026-12-05', '2026-12-06', '2027-01-30', '2027-01-31'].map(weekdayFrom)).toEqual(['2026-12-04', '2026-12-07', '2026-12-07', '2027-02-01', '2027-02-01']);
  });
});
