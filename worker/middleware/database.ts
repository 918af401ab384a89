import { createMiddleware } from 'hono/factory';
import { getDb } from '../db/client';
import type { AppEnv } from '../env';

/**
 * The request's database, from one place: `c.var.db` for every route (the Drizzle handle over the
 * request's D1 binding, which `npm run bench:load` may have wrapped to count its calls). Services
 * take it as an argument; none reaches for the binding itself (docs/architecture.md, "Doors and the floor").
 */
export const database = () =>
  createMiddleware<AppEnv>(async (c, next) => {
    c.set('db', getDb(c.env.DB));
    await next();
  });
