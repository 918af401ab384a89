import { getDb } from './db/client';
import type { Bindings } from './env';
import { pruneLoginFailures } from './services/login-throttle';

/** The Cron Trigger (wrangler.toml [triggers]): periodic housekeeping and scheduled work. */
export async function scheduled(_controller: ScheduledController, env: Bindings, _ctx: ExecutionContext): Promise<void> {
  const db = getDb(env.DB);
  await pruneLoginFailures(db);
}
