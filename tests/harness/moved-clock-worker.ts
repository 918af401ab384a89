import worker from '../../worker/index';
import { installMovedClock, MOVED_CLOCK_VAR, movedClockOffset } from './moved-clock';

// The local stack's worker under the moved clock (tests/harness/moved-clock.ts): the real worker,
// whose Date is moved before it handles anything. scripts/lib/direct-worker.ts serves this entry
// instead of worker/index.ts only when TEST_CLOCK_OFFSET_MS is set (scripts/test-dates.ts); nothing
// deployed ever includes it.

type Env = Parameters<typeof worker.fetch>[1];
const offsetOf = (env: Env) => movedClockOffset((env as unknown as Record<string, string | undefined>)[MOVED_CLOCK_VAR]);

export default {
  fetch(request, env, ctx) {
    installMovedClock(offsetOf(env));
    return worker.fetch(request, env, ctx);
  },
  scheduled(controller, env, ctx) {
    installMovedClock(offsetOf(env));
    // The trigger's time is the runtime's real clock: moved like everything else.
    const moved = { scheduledTime: controller.scheduledTime + offsetOf(env), cron: controller.cron, noRetry: () => controller.noRetry() };
    return worker.scheduled(moved as ScheduledController, env, ctx);
  },
} satisfies ExportedHandler<Env>;
