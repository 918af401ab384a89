import { Hono } from 'hono';
import type { AppEnv } from '../env';

/** Liveness and database reachability, for uptime checks and the load benchmark's baseline. */
export const health = new Hono<AppEnv>().get('/', async (c) => {
  const row = await c.env.DB.prepare('select 1 as ok').first<{ ok: number }>();
  return c.json({ status: 'ok' as const, database: row?.ok === 1 ? 'ok' : 'unavailable', time: new Date().toISOString() }, 200);
});
