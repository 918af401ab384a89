/**
 * Counts the calls an invocation makes to D1 (each statement run outside a batch, and each batch,
 * is one call: one subrequest against the plan's per-invocation limit). Used by the cron handler
 * to report what a newsletter tick costs; behaviour is otherwise unchanged.
 */
export function countingD1(d1: D1Database): { db: D1Database; calls: () => number } {
  let calls = 0;
  const real = new WeakMap<object, D1PreparedStatement>();
  const wrap = (statement: D1PreparedStatement): D1PreparedStatement => {
    const proxy = new Proxy(statement, {
      get(target, prop) {
        if (prop === 'bind') return (...values: unknown[]) => wrap(target.bind(...values));
        if (prop === 'all' || prop === 'run' || prop === 'first' || prop === 'raw') {
          return (...args: unknown[]) => {
            calls++;
            return (target[prop] as (...a: unknown[]) => unknown).apply(target, args);
          };
        }
        const value = Reflect.get(target, prop, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    real.set(proxy, statement);
    return proxy;
  };
  const db = new Proxy(d1, {
    get(target, prop) {
      if (prop === 'prepare') return (query: string) => wrap(target.prepare(query));
      if (prop === 'batch') {
        return (statements: D1PreparedStatement[]) => {
          calls++;
          return target.batch(statements.map((s) => real.get(s) ?? s));
        };
      }
      if (prop === 'exec') {
        return (query: string) => {
          calls++;
          return target.exec(query);
        };
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { db, calls: () => calls };
}
