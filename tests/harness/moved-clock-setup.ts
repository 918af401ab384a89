import { installMovedClock, MOVED_CLOCK_VAR, movedClockOffset } from './moved-clock';

// The Node test files' share of the moved clock (tests/harness/moved-clock.ts): a no-op unless
// scripts/test-dates.ts set TEST_CLOCK_OFFSET_MS.
installMovedClock(movedClockOffset(process.env[MOVED_CLOCK_VAR]));
