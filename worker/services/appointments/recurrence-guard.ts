import ICAL from 'ical.js';

// The busy calendars' repeat rules are written by whoever shares the calendar, and ical.js 2.2.1
// (docs/decisions/0014) looks for a rule's next date one candidate at a time with no bound: a rule
// whose filters no date ever passes, like `FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30` (upstream
// kewisch/ical.js#1038), never returns from `next()` and stalls the whole worker. Two defences,
// docs/decisions/0019-recurrence-rules-that-cannot-stall.md:
// - recurrenceRuleProblem, a pure check before iterating: does any day of a four-year window pass
//   the rule's day filters as ical.js applies them, and is the longest stretch between two such
//   days short enough to walk at the rule's frequency?
// - guardRecurrence, a hard cap: every candidate ical.js looks at is counted (its one per-candidate
//   test, RecurIterator.check_contracting_rules), and past the step or time budget the expansion
//   stops with RecurrenceBudgetError, whatever the rule.

/** Four years hold every month length and a 29 February, so a day pattern absent from them never occurs. */
export const RULE_WINDOW_DAYS = 4 * 365 + 1;

export type RecurrenceRuleProblem = 'never' | 'too-costly';

type Freq = 'SECONDLY' | 'MINUTELY' | 'HOURLY' | 'DAILY' | 'WEEKLY' | 'MONTHLY' | 'YEARLY';
const FREQS: readonly Freq[] = ['SECONDLY', 'MINUTELY', 'HOURLY', 'DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY'];
const rank = (freq: Freq) => FREQS.indexOf(freq);

/** Candidates ical.js walks per day at each frequency below a week (one per INTERVAL). */
const CANDIDATES_PER_DAY: Partial<Record<Freq, number>> = { SECONDLY: 86_400, MINUTELY: 1_440, HOURLY: 24, DAILY: 1 };

/** RFC 5545 BYDAY codes, Sunday first like Date.getUTCDay. */
const BYDAY_CODES = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'];

type Day = { year: number; month: number; day: number; weekday: number; yearDay: number; monthLength: number; yearLength: number };

function dayAt(epochDay: number): Day {
  const date = new Date(epochDay * 86_400_000);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth() + 1;
  const yearStart = Date.UTC(year, 0, 1) / 86_400_000;
  return {
    year,
    month,
    day: date.getUTCDate(),
    weekday: date.getUTCDay(),
    yearDay: epochDay - yearStart + 1,
    monthLength: new Date(Date.UTC(year, month, 0)).getUTCDate(),
    yearLength: (Date.UTC(year + 1, 0, 1) / 86_400_000) - yearStart,
  };
}

/** A BYMONTHDAY or BYYEARDAY value against a position counted from 1, negatives from the end (RFC 5545). */
const atPosition = (value: number, position: number, length: number) => value === position || (value < 0 && length + value + 1 === position);

/** `2MO` as [2, 1], `-1FR` as [-1, 5], `TU` as [0, 2]; null when malformed. */
function weekdayEntry(entry: string): [number, number] | null {
  const match = /^([+-]?\d{1,2})?([A-Z]{2})$/.exec(entry.toUpperCase());
  const weekday = match ? BYDAY_CODES.indexOf(match[2]) : -1;
  return match && weekday >= 0 ? [Number(match[1] ?? 0), weekday] : null;
}

/**
 * Whether a day can hold an occurrence. Where ical.js contracts (the filter is finer than the
 * frequency, e.g. BYMONTHDAY in a DAILY rule: RecurIterator._expandMap) it compares the raw values,
 * so `BYMONTHDAY=-1` or `BYDAY=1MO` never match there, and neither do they here. Where it expands
 * (MONTHLY and YEARLY rules) the RFC's meaning is taken, ordinals and negatives included. BYWEEKNO
 * and BYSETPOS are left out: they only narrow, so leaving them out never refuses a rule that occurs.
 */
function dayMatches(parts: ICAL.Recur['parts'], freq: Freq, d: Day): boolean {
  const contracts = rank(freq) <= rank('DAILY');
  if (parts.BYMONTH && !parts.BYMONTH.includes(d.month)) return false;
  if (parts.BYMONTHDAY && !parts.BYMONTHDAY.some((v) => (contracts ? v === d.day : atPosition(v, d.day, d.monthLength)))) return false;
  if (parts.BYYEARDAY && !parts.BYYEARDAY.some((v) => (contracts ? v === d.yearDay : atPosition(v, d.yearDay, d.yearLength)))) return false;
  if (parts.BYDAY) {
    const inMonth = freq === 'MONTHLY' || (freq === 'YEARLY' && parts.BYMONTH !== undefined);
    const ordinalsApply = (freq === 'MONTHLY' || freq === 'YEARLY') && !parts.BYWEEKNO;
    const passes = parts.BYDAY.some((entry) => {
      const parsed = weekdayEntry(entry);
      if (!parsed || parsed[1] !== d.weekday) return false;
      const [nth] = parsed;
      if (nth === 0) return true;
      if (contracts) return false;
      if (!ordinalsApply) return true;
      const [position, length] = inMonth ? [d.day, d.monthLength] : [d.yearDay, d.yearLength];
      return nth > 0 ? Math.ceil(position / 7) === nth : Math.floor((length - position) / 7) + 1 === -nth;
    });
    if (!passes) return false;
  }
  return true;
}

/** The longest run of values in [0, size) that fail `passes`, counted around the end (a day's hours wrap). */
function longestGap(size: number, passes: (i: number) => boolean): number {
  let longest = 0;
  let run = 0;
  let firstRun = -1;
  for (let i = 0; i < size; i++) {
    if (passes(i)) {
      if (firstRun < 0) firstRun = run;
      longest = Math.max(longest, run);
      run = 0;
    } else run++;
  }
  return firstRun < 0 ? size : Math.max(longest, run + firstRun);
}

/**
 * Why a repeat rule must not be iterated, or null. `never`: no day of the four years from
 * `windowStart` (epoch day, the first day that matters) passes its filters, so it has no
 * occurrence the booking horizon (two years at most) could hold, or ical.js could not find one.
 * `too-costly`: ical.js would walk more than `maxSteps` candidates between two occurrences (a rule
 * every second or minute on one day a year), which no busy calendar needs.
 */
export function recurrenceRuleProblem(rule: ICAL.Recur, windowStart: number, maxSteps: number): RecurrenceRuleProblem | null {
  const freq = rule.freq as Freq;
  if (!FREQS.includes(freq)) return 'never';
  const parts = rule.parts;
  const interval = Math.max(1, rule.interval || 1);
  // Zero is no month, day or position (RFC 5545 3.3.10); ical.js would look for it forever.
  if ([parts.BYMONTH, parts.BYMONTHDAY, parts.BYYEARDAY, parts.BYWEEKNO, parts.BYSETPOS].some((list) => list?.some((v) => Number(v) === 0))) return 'never';
  const dayGap = longestGap(RULE_WINDOW_DAYS, (i) => dayMatches(parts, freq, dayAt(windowStart + i)));
  if (dayGap === RULE_WINDOW_DAYS) return 'never';
  const perDay = CANDIDATES_PER_DAY[freq];
  if (perDay === undefined) return null; // WEEKLY and longer: ical.js moves a week, a month or a year at a time
  // Within a day, an hourly filter on a rule every minute or second leaves a gap of its own.
  const hourGap = parts.BYHOUR && rank(freq) < rank('HOURLY') ? longestGap(24, (h) => parts.BYHOUR!.includes(h)) : 0;
  if (hourGap === 24) return 'never';
  const steps = ((dayGap * perDay) + (hourGap * perDay) / 24) / interval;
  return steps > maxSteps ? 'too-costly' : null;
}

/** The expansion's budget ran out: the calendar has a rule too costly to expand. */
export class RecurrenceBudgetError extends Error {}

type Budget = { steps: number; maxSteps: number; deadline: number };
let active: Budget | null = null;

// ical.js tests each candidate date once, in check_contracting_rules; counting there bounds every
// loop of RecurIterator.next(), whatever the rule. Outside guardRecurrence nothing is counted.
const recurIteratorPrototype = ICAL.RecurIterator.prototype as { check_contracting_rules(): boolean };
const checkContractingRules = recurIteratorPrototype.check_contracting_rules;
recurIteratorPrototype.check_contracting_rules = function guardedCheck(this: unknown) {
  const budget = active;
  if (budget) {
    budget.steps++;
    // Date.now() costs little, but every step would still add up: look at the clock every 256.
    if (budget.steps > budget.maxSteps || ((budget.steps & 255) === 0 && Date.now() > budget.deadline)) {
      throw new RecurrenceBudgetError('recurrence expansion over budget');
    }
  }
  return checkContractingRules.call(this);
};

/**
 * Runs `expand` (synchronous, so no other request's expansion shares the budget) with at most
 * `maxSteps` candidates looked at and until `maxMs` have passed; beyond either, ical.js's
 * iterator throws RecurrenceBudgetError out of `expand`. In production Workers' clock only moves
 * on I/O, so there the step count is what bounds it; the time cap holds wherever the clock runs.
 */
export function guardRecurrence<T>(limits: { maxSteps: number; maxMs: number }, expand: () => T): T {
  const outer = active;
  active = { steps: 0, maxSteps: limits.maxSteps, deadline: Date.now() + limits.maxMs };
  try {
    return expand();
  } finally {
    active = outer;
  }
}
