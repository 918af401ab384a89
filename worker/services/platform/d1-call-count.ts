import type { Bindings } from '../../env';

// The one D1 call counter. Two readers: `npm run bench:load` (docs/operations.md, Benchmarks),
// which checks on the running stack how many D1 round trips a request makes before its answer (a
// visitor's submission is one D1 call, docs/architecture.md, Writes), only for a request that asks
// (X-Count-D1-Calls: 1) to a worker run with COUNT_D1_CALLS='1', which the bench sets (every other
// request, the bench's load included, goes through the worker's fetch untouched); and the cron's
// tick and the admin's send (countingD1), which report what a newsletter batch costs against the
// plan's subrequests per invocation.

/** A D1 binding that counts each call reaching the database: a statement's run/all/first/raw, a batch, an exec. */
function countedD1(db: D1Database, count: () => void): D1Database {
  // A method of `target`, counted when it is called (not when it is looked up) if it reaches the database.
  const calling = (method: unknown, target: object, counts: boolean) => (...args: unknown[]) => {
    if (counts) count();
    return (method as (...args: unknown[]) => unknown).apply(target, args);
  };
  // Each wrapped statement's own, for a batch of wrapped statements (the batch is one call).
  const unwrapped = new WeakMap<object, D1PreparedStatement>();
  const wrap = (inner: D1PreparedStatement): D1PreparedStatement => {
    const outer = new Proxy(inner, {
      get(target, key) {
        const value = Reflect.get(target, key, target) as unknown;
        if (typeof value !== 'function') return value;
        if (key === 'bind') return (...values: unknown[]) => wrap(target.bind(...values));
        return calling(value, target, key === 'run' || key === 'all' || key === 'first' || key === 'raw');
      },
    });
    unwrapped.set(outer, inner);
    return outer;
  };
  return new Proxy(db, {
    get(target, key) {
      const value = Reflect.get(target, key, target) as unknown;
      if (typeof value !== 'function') return value;
      if (key === 'prepare') return (query: string) => wrap(target.prepare(query));
      if (key === 'batch') return (statements: D1PreparedStatement[]) => (count(), target.batch(statements.map((s) => unwrapped.get(s) ?? s)));
      return calling(value, target, key === 'exec');
    },
  });
}

/**
 * A D1 binding that counts the calls made through it (each statement run outside a batch, and each
 * batch, is one call: one subrequest against the plan's per-invocation limit), and the count so far.
 */
export function countingD1(d1: D1Database): { db: D1Database; calls: () => number } {
  let calls = 0;
  return { db: countedD1(d1, () => calls++), calls: () => calls };
}

/**
 * The worker's fetch, answering with X-D1-Calls (the D1 calls made before the answer; work after
 * it, through waitUntil, is not counted) a request that asks, when COUNT_D1_CALLS is '1'.
 */
export function countingD1Calls(fetch: (request: Request, env: Bindings, ctx: ExecutionContext) => Response | Promise<Response>) {
  return async (request: Request, env: Bindings, ctx: ExecutionContext): Promise<Response> => {
    if (env.COUNT_D1_CALLS !== '1' || request.headers.get('x-count-d1-calls') !== '1') return fetch(request, env, ctx);
    let calls = 0;
    const response = await fetch(request, { ...env, DB: countedD1(env.DB, () => calls++) }, ctx);
    const counted = new Response(response.body, response);
    counted.headers.set('X-D1-Calls', String(calls));
    return counted;
  };
}
