import { env } from 'cloudflare:test';
import { installMovedClock, MOVED_CLOCK_VAR, movedClockOffset } from '../moved-clock';

// The worker tests' share of the moved clock (tests/harness/moved-clock.ts): the test code and the
// worker run in this one isolate, so moving its Date moves both. A no-op unless scripts/test-dates.ts
// set TEST_CLOCK_OFFSET_MS (vitest.config.ts passes it on as a binding).
installMovedClock(movedClockOffset((env as unknown as Record<string, string | undefined>)[MOVED_CLOCK_VAR]));
