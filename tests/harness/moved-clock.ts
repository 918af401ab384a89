// A test-only clock that the whole local stack shares, for running the date-sensitive tests as if
// today were another day (scripts/test-dates.ts, docs/operations.md "Tests on every day of the
// year"). Every process reads the same offset from TEST_CLOCK_OFFSET_MS, so the test code (Node,
// tests/harness/moved-clock-setup.ts), the worker (workerd: tests/harness/moved-clock-worker.ts and
// tests/harness/worker/moved-clock-setup.ts) and the pages (Chromium: an init script of every
// context, tests/harness/e2e/browser.ts) agree on "now" to the second.
//
// Why not libfaketime (Debian's faketime) over the whole stack: workerd's allocator (tcmalloc) reads
// the CPU list through poll() while holding its lock, libfaketime's poll() wrapper allocates on its
// first call, and workerd deadlocks before it serves anything; under Chromium it works but each new
// page took 8 to 15 s instead of 0.2. So JavaScript's Date is moved instead. What it does not move:
// SQLite's own clock inside workerd (the columns' `unixepoch()` defaults keep the real time) and the
// runtime's timers, which keep their pace.

/** The environment variable (and worker binding) that carries the offset, in milliseconds. */
export const MOVED_CLOCK_VAR = 'TEST_CLOCK_OFFSET_MS';

/**
 * Replaces the global Date with one `offsetMs` ahead (or behind): `Date.now()`, `new Date()` and
 * `Date()` read the moved clock; a Date built from a value, Date.UTC and Date.parse are unchanged.
 * Idempotent: a second call (another test file in the same process) changes nothing. Self-contained
 * (no outer name), since the browser runs its source as an init script (tests/harness/e2e/browser.ts).
 */
export function installMovedClock(offsetMs: number): void {
  const installed = Symbol.for('cpa.movedClock');
  const global = globalThis as unknown as Record<symbol, unknown> & { Date: DateConstructor };
  if (!offsetMs || global[installed]) return;
  const RealDate = global.Date;
  const now = () => RealDate.now() + offsetMs;
  global.Date = new Proxy(RealDate, {
    construct(target, args, newTarget) {
      return Reflect.construct(target, args.length === 0 ? [now()] : args, newTarget);
    },
    apply() {
      return new RealDate(now()).toString();
    },
    get(target, key, receiver) {
      if (key === 'now') return now;
      return Reflect.get(target, key, receiver);
    },
  });
  global[installed] = offsetMs;
}

/** The offset this process was given (0 when the clock is not moved). */
export const movedClockOffset = (value: string | undefined): number => {
  const offset = Number(value ?? 0);
  if (!Number.isSafeInteger(offset)) throw new Error(`${MOVED_CLOCK_VAR} must be a whole number of milliseconds, not ${value}`);
  return offset;
};
