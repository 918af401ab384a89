import { env } from 'cloudflare:test';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultContent } from '#core/content/default-content';
import { migratedTables, quote } from './d1-tables';
import { call, ORIGIN, signIn } from './helpers';
import { nextWeekday } from './submission-helpers';

// Property-based fuzzing of every API route: whatever arrives — wrong types, unicode,
// nesting, missing fields, huge bodies, odd content types, hostile origins — the API answers only
// with an expected status, never 5xx, and a rejected request leaves D1 exactly as it was. The routes
// come in three groups, each fuzzed by its own test file (fuzz.test.ts, fuzz-admin-records.test.ts,
// fuzz-admin-content.test.ts), so the three run side by side instead of one file running all of them.
const EXPECTED = new Set([200, 201, 202, 204, 400, 401, 403, 404, 405, 409, 413, 415, 429]);
const RUNS = Number(process.env.FUZZ_RUNS ?? 250);

export interface RouteSpec {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  path: string;
  /** A valid body to mutate, so the fuzzer also reaches the code behind validation. */
  valid?: Record<string, unknown>;
  admin?: boolean;
  /**
   * Tables a rejected request may legitimately write: failed sign-ins are counted (and recorded in the
   * audit trail, docs/product.md §6.9), and so are form attempts against the per-IP allowance (a
   * booking refused 409 for a taken slot still counts).
   */
  mayWriteOnReject?: string[];
  query?: Record<string, string>;
}

/** A weekday at least three of the firm's days ahead. */
const tomorrowWeekday = () => nextWeekday(3);

/** The visitors' routes and the sign-in ones (tests/security/fuzz.worker.test.ts). */
export const publicRoutes: RouteSpec[] = [
  { method: 'GET', path: '/api/health' },
  { method: 'POST', path: '/api/admin/login', valid: { username: 'admin', password: 'correct-horse-battery' }, mayWriteOnReject: ['login_attempts', 'audit_log'] },
  { method: 'POST', path: '/api/admin/logout' },
  { method: 'GET', path: '/api/admin/session' },
  // A wrong current password is a counted sign-in attempt: it writes login_attempts.
  { method: 'POST', path: '/api/admin/change-password', admin: true, valid: { currentPassword: 'wrong-password', newPassword: 'another-password-1' }, mayWriteOnReject: ['login_attempts'] },
  { method: 'POST', path: '/api/contact', valid: { name: 'Jane Doe', email: 'jane@example.com', phone: '724-555-0100', message: 'I need help with my 2025 return.' }, mayWriteOnReject: ['submission_windows'] },
  { method: 'GET', path: '/api/appointments/availability', query: { date: tomorrowWeekday() } },
  { method: 'POST', path: '/api/appointments', valid: { name: 'Jane Doe', email: 'jane@example.com', phone: '7245550100', serviceType: 'Individual Tax Return', date: tomorrowWeekday(), timeSlot: '10:00 AM', notes: 'First visit' }, mayWriteOnReject: ['submission_windows'] },
  { method: 'POST', path: '/api/chat', valid: { message: 'How much does an individual return cost?', sessionId: '3b241101-e2bb-4255-8caf-4136c566a962' } },
  { method: 'POST', path: '/api/newsletter/subscribe', valid: { email: 'reader@example.com', name: 'Reader' } },
];

/** The back office's records: messages, appointments, subscribers, newsletters (tests/security/fuzz-admin-records.worker.test.ts). */
export const adminRecordRoutes: RouteSpec[] = [
  { method: 'GET', path: '/api/admin/contact-messages', admin: true },
  { method: 'PATCH', path: '/api/admin/contact-messages/1', admin: true, valid: { read: true } },
  { method: 'GET', path: '/api/admin/contact-messages/search', admin: true, query: { q: '50%_off\\', status: 'archived', from: '2025-01-01', to: '2025-12-31' } },
  { method: 'PATCH', path: '/api/admin/contact-messages/1/archive', admin: true, valid: { archived: true } },
  { method: 'GET', path: '/api/admin/rate-limit-stats', admin: true },
  { method: 'GET', path: '/api/admin/appointments', admin: true },
  { method: 'PATCH', path: '/api/admin/appointments/1', admin: true, valid: { status: 'confirmed' } },
  { method: 'GET', path: '/api/admin/appointments/search', admin: true, query: { q: 'tax', status: 'requested', when: 'upcoming' } },
  { method: 'GET', path: '/api/admin/subscribers', admin: true },
  { method: 'GET', path: '/api/admin/subscribers/search', admin: true, query: { q: 'reader', page: '1', status: 'active', from: '2026-01-01', to: '2026-12-31' } },
  { method: 'GET', path: '/api/admin/subscribers/counts', admin: true },
  { method: 'GET', path: '/api/admin/chat-sessions', admin: true, query: { q: '100%_x', status: 'handed-off', from: '2026-01-01' } },
  { method: 'GET', path: '/api/admin/sent-newsletters', admin: true },
  { method: 'POST', path: '/api/admin/send-newsletter', admin: true, valid: { subject: 'News', content: '<p>Hello</p>' } },
  { method: 'POST', path: '/api/admin/newsletter/send', admin: true },
  { method: 'GET', path: '/api/admin/newsletter/stats', admin: true },
  { method: 'GET', path: '/api/admin/newsletter/preview-static', admin: true },
];

/** The back office's scheduler, e-mail and site content (tests/security/fuzz-admin-content.worker.test.ts). */
export const adminContentRoutes: RouteSpec[] = [
  { method: 'GET', path: '/api/admin/scheduler/status', admin: true },
  { method: 'POST', path: '/api/admin/scheduler/stop', admin: true },
  { method: 'POST', path: '/api/admin/email/test-auth', admin: true },
  { method: 'POST', path: '/api/admin/email/test-send', admin: true, valid: { testEmail: 'admin@example.com' } },
  { method: 'GET', path: '/api/admin/emails', admin: true },
  { method: 'GET', path: '/api/admin/content', admin: true },
  { method: 'PUT', path: '/api/admin/content/draft', admin: true, valid: { basedOn: 1, content: defaultContent } },
  { method: 'POST', path: '/api/admin/content/publish', admin: true, valid: { basedOn: 1, revision: 1 } },
  { method: 'GET', path: '/api/admin/content/versions', admin: true },
  { method: 'POST', path: '/api/admin/content/restore', admin: true, valid: { version: 1 } },
];

// --- generators -----------------------------------------------------------------------------

const nasty = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 50 }),
  fc.string({ unit: 'binary', maxLength: 50 }),
  fc.constantFrom('', ' ', '\u0000', '\r\n', 'a'.repeat(5000), "'; DROP TABLE contact_messages; --", '<script>alert(1)</script>', '../../etc/passwd', '__proto__', 'javascript:alert(1)', '=HYPERLINK("x")'),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 3 }),
);

function mutatedBody(valid: Record<string, unknown> | undefined) {
  const keys = Object.keys(valid ?? {});
  return fc
    .record({
      drop: fc.subarray(keys),
      replace: fc.dictionary(keys.length ? fc.constantFrom(...keys) : fc.constant('x'), nasty, { maxKeys: 3 }),
      extra: fc.dictionary(fc.string({ maxLength: 8 }), nasty, { maxKeys: 2 }),
    })
    .map(({ drop, replace, extra }) => {
      const body: Record<string, unknown> = { ...extra, ...(valid ?? {}) };
      for (const key of drop) delete body[key];
      return JSON.stringify({ ...body, ...replace });
    });
}

function rawBody(valid: Record<string, unknown> | undefined) {
  return fc.oneof(
    { weight: 4, arbitrary: mutatedBody(valid) },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: fc.string({ maxLength: 200 }) },
    { weight: 1, arbitrary: fc.constantFrom('', '{', '{"a":', '[]', 'null', '"x"', '{"__proto__":{"admin":true}}', '{'.repeat(5000)) },
    { weight: 1, arbitrary: fc.integer({ min: 60_000, max: 200_000 }).map((n) => JSON.stringify({ ...(valid ?? {}), pad: 'x'.repeat(n) })) },
  );
}

const contentType = fc.oneof(
  { weight: 5, arbitrary: fc.constant('application/json') },
  { weight: 1, arbitrary: fc.constantFrom('application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml', '', 'application/json, text/html', '*/*') },
);

const origin = fc.oneof(
  { weight: 6, arbitrary: fc.constant(ORIGIN) },
  { weight: 1, arbitrary: fc.constantFrom('https://evil.example', 'null', 'http://localhost.evil.example') },
);

const query = fc.dictionary(fc.constantFrom('date', 'limit', 'offset', 'page', 'token', 'x'), nasty.map((v) => (typeof v === 'string' ? v : JSON.stringify(v) ?? '')), { maxKeys: 3 });

// --- D1 write log -------------------------------------------------------------------------

/** The table the triggers below log every row write into while a route is fuzzed. */
const WRITES = '__fuzz_writes';

/** Every row of each of these tables, read in ONE D1 batch, as JSON by table. */
async function contentsOf(tables: string[]): Promise<Map<string, string>> {
  const rows = tables.length ? await env.DB.batch(tables.map((table) => env.DB.prepare(`select * from ${quote(table)}`))) : [];
  return new Map(tables.map((table, i) => [table, JSON.stringify(rows[i].results)]));
}

/**
 * Logs which tables each request writes (any insert, update or delete, even one a later statement
 * undoes), through triggers on every table, until the returned function drops them again (the
 * schema is then back as the migrations left it). A rejected request must leave D1 exactly as it
 * was; reading every row of every table before and after each request grew with every row the
 * accepted ones stored. With the log, only the tables a request wrote are read again, and compared
 * with their last known contents: equal for a rejected request (a claim given back, say), and the
 * new known contents after an accepted one.
 */
async function logWrites(): Promise<{ tables: string[]; stop: () => Promise<void> }> {
  const tables = await migratedTables();
  const triggers = tables.flatMap((table, i) => (['insert', 'update', 'delete'] as const).map((op) => ({ name: `__fuzz_${i}_${op}`, table, op })));
  await env.DB.batch([
    env.DB.prepare(`create table ${WRITES} (written text not null)`),
    ...triggers.map(({ name, table, op }) =>
      env.DB.prepare(`create trigger ${name} after ${op} on ${quote(table)} begin insert into ${WRITES} (written) values ('${table.replaceAll("'", "''")}'); end`),
    ),
  ]);
  const stop = async () => {
    await env.DB.batch([...triggers.map(({ name }) => env.DB.prepare(`drop trigger ${name}`)), env.DB.prepare(`drop table ${WRITES}`)]);
  };
  return { tables, stop };
}

/** The tables written since the log was last read, and the log emptied for the next request. */
async function takeWritten(): Promise<string[]> {
  const [written] = await env.DB.batch<{ written: string }>([env.DB.prepare(`select distinct written from ${WRITES} order by written`), env.DB.prepare(`delete from ${WRITES}`)]);
  return written.results.map((row) => row.written);
}

// --- the properties

/** One property test per route: `fuzz <METHOD> <path>`. */
export function fuzzRoutes(routes: RouteSpec[]): void {
  describe.each(routes)('fuzz $method $path', (route) => {
    it(`answers only expected statuses and rejects without writing (${RUNS} runs)`, { timeout: 240_000 }, async () => {
      const cookie = route.admin ? await signIn(undefined, '10.255.255.254') : undefined;
      const hasBody = route.method !== 'GET';
      const log = await logWrites();
      const known = await contentsOf(log.tables);
      try {
        await fc.assert(
          fc.asyncProperty(
            hasBody ? rawBody(route.valid) : fc.constant(undefined),
            contentType,
            origin,
            query,
            fc.ipV4(),
            fc.boolean(),
            async (body, type, from, params, ip, withCookie) => {
              const search = new URLSearchParams({ ...(route.query ?? {}), ...params }).toString();
              // Raw call: fuzzed bodies, content types and query strings, sent as generated.
              const res = await call(`${route.path}${search ? `?${search}` : ''}`, {
                method: route.method,
                rawBody: body,
                headers: { ...(hasBody ? { 'content-type': type } : {}), origin: from },
                cookie: withCookie || route.admin ? cookie : undefined,
                ip,
              });
              await res.arrayBuffer();
              expect(EXPECTED.has(res.status), `${route.method} ${route.path} answered ${res.status}`).toBe(true);
              const written = await takeWritten();
              const now = await contentsOf(written);
              if (res.status >= 400) {
                for (const table of written) {
                  if (!route.mayWriteOnReject?.includes(table)) expect(now.get(table), `${route.method} ${route.path} answered ${res.status} but changed ${table}`).toBe(known.get(table));
                }
              }
              for (const [table, rows] of now) known.set(table, rows);
            },
          ),
          { numRuns: RUNS },
        );
      } finally {
        await log.stop();
      }
    });
  });
}
