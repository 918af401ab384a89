import { DayButton, DayPicker, labelDayButton, type DayButtonProps } from 'react-day-picker';
import { BOOKING_HORIZON_DAYS } from '#core/content/booking';
import type { ClosedDaysView } from '../use-closed-days';

// react-day-picker is imported here only, and only the booking form loads this file (with a
// dynamic import, after the Schedule page has loaded), so the calendar code is a chunk of its own
// that no other page downloads and that the Schedule page fetches once it is idle.

const classNames = {
  root: 'relative w-full',
  months: 'relative',
  month: 'w-full',
  month_caption: 'flex h-10 items-center justify-center',
  caption_label: 'text-base font-semibold text-slate-900',
  nav: 'absolute inset-x-0 top-0 z-10 flex h-10 items-center justify-between',
  button_previous:
    'inline-flex h-9 w-9 items-center justify-center rounded-md text-slate-700 hover:bg-slate-100 aria-disabled:pointer-events-none aria-disabled:opacity-30',
  button_next:
    'inline-flex h-9 w-9 items-center justify-center rounded-md text-slate-700 hover:bg-slate-100 aria-disabled:pointer-events-none aria-disabled:opacity-30',
  chevron: 'h-4 w-4 fill-current',
  month_grid: 'mt-2 w-full border-collapse',
  weekdays: '',
  weekday: 'h-9 text-center text-xs font-medium uppercase text-slate-500',
  week: '',
  day: 'p-0 text-center text-sm sm:p-0.5',
  day_button:
    // Up to 36 px wide, narrower when the column is (7 x 36 px do not fit at 320 px: WCAG 1.4.10).
    'mx-auto flex h-9 w-full max-w-9 items-center justify-center rounded-md text-slate-900 hover:bg-brand-50 focus-visible:outline-2 disabled:cursor-not-allowed disabled:hover:bg-transparent sm:h-10 sm:max-w-10',
  selected: '[&>button]:bg-brand-700 [&>button]:font-semibold [&>button]:text-white [&>button:hover]:bg-brand-800',
  today: '[&>button]:font-bold [&>button]:underline [&>button]:underline-offset-4',
  // Modifier classes land on the cell; the colour must reach its button.
  outside: '[&>button]:text-slate-500',
  disabled: '[&>button]:text-slate-300 [&>button]:font-normal',
  hidden: 'invisible',
};

/** A full day's reason, in its accessible name and as its tooltip (docs/product.md §3). */
export const FULLY_BOOKED = 'Fully booked';

/** The day's button, with the reason a full day is unavailable as its tooltip. */
function BookingDayButton(props: DayButtonProps) {
  return <DayButton {...props} title={props.modifiers.full ? FULLY_BOOKED : undefined} />;
}

const labels = {
  labelDayButton: (...args: Parameters<typeof labelDayButton>) => `${labelDayButton(...args)}${args[1].full ? `, ${FULLY_BOOKED.toLowerCase()}` : ''}`,
};

/** A YYYY-MM-DD day as the local-midnight Date the calendar compares with. */
const localDay = (iso: string) => {
  const [y, m, d] = iso.split('-').map(Number);
  return new Date(y, m - 1, d);
};

/**
 * Single-day calendar (docs/product.md §3): week starts Sunday, outside days shown, weekends,
 * past days and days past the booking horizon disabled (the API refuses them too), and so are the
 * firm's closed days when given (blocked dates, weekdays that offer no slot) and the days the
 * booking rules close (inside the minimum notice, past the admin's horizon: §6.4). A full day (no
 * time left) is disabled too, struck through, and says why: "fully booked" in its name, as its
 * tooltip, and in the line under the calendar (booking-form.tsx).
 */
export function BookingCalendar({
  today,
  selected,
  onSelect,
  labelledBy,
  closed = {},
  onMonthChange,
}: {
  /** Today in the firm's time zone, as a local-midnight Date. */
  today: Date;
  selected: Date | undefined;
  onSelect: (date: Date | undefined) => void;
  labelledBy: string;
  /**
   * The closed days as useClosedDays reads them (use-closed-days.ts): the blocked `dates` and the
   * `weekdays` that offer no slot, beyond the weekend; the open days with no time left
   * (`fullDates`); the first and last days the booking rules leave open, once the API has said.
   */
  closed?: Partial<Pick<ClosedDaysView, 'dates' | 'weekdays' | 'fullDates' | 'firstDay' | 'lastDay'>>;
  /** The first day of the month now shown, when the visitor changes month. */
  onMonthChange?: (month: Date) => void;
}) {
  const { dates: closedDates = [], weekdays: closedWeekdays = [], fullDates = [], firstDay, lastDay: ruleLastDay } = closed;
  // Until the API has said: today, and BOOKING_HORIZON_DAYS after it (local calendar arithmetic, as the API's).
  const lastDay = ruleLastDay ? localDay(ruleLastDay) : new Date(today.getFullYear(), today.getMonth(), today.getDate() + BOOKING_HORIZON_DAYS);
  const first = firstDay && localDay(firstDay) > today ? localDay(firstDay) : today;
  return (
    <DayPicker
      mode="single"
      selected={selected}
      onSelect={onSelect}
      // "Today" is the firm's today, so the highlight matches the first bookable day.
      today={today}
      weekStartsOn={0}
      showOutsideDays
      // Always six week rows, so every month is the same height and the reserved box never grows.
      fixedWeeks
      startMonth={today}
      endMonth={lastDay}
      defaultMonth={selected ?? today}
      disabled={[{ before: first }, { after: lastDay }, { dayOfWeek: [0, 6, ...closedWeekdays] }, closedDates.map(localDay), fullDates.map(localDay)]}
      modifiers={{ full: fullDates.map(localDay) }}
      // Struck through in the amber of the form's notices: apart from the closed days' grey.
      modifiersClassNames={{ full: '[&>button]:line-through [&>button]:decoration-2 [&>button]:text-amber-800!' }}
      labels={labels}
      components={{ DayButton: BookingDayButton }}
      onMonthChange={onMonthChange}
      classNames={classNames}
      aria-labelledby={labelledBy}
    />
  );
}
