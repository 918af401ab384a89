import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { databaseStatus } from '../services/platform/health';

/** Liveness and database reachability, for uptime checks and the load benchmark's baseline. */
export const health = new Hono<AppEnv>().get('/', async (c) => {
  const database = await databaseStatus(c.env.DB);
  return c.json({ status: 'ok' as const, database, time: new Date().toISOString() }, 200);
});
