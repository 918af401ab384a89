/** Whether D1 answers a trivial query: 'ok', or 'unavailable' when it answers something else. */
export async function databaseStatus(d1: D1Database): Promise<'ok' | 'unavailable'> {
  const row = await d1.prepare('select 1 as ok').first<{ ok: number }>();
  return row?.ok === 1 ? 'ok' : 'unavailable';
}
