import { env } from 'cloudflare:test';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultContent } from '#core/content/default-content';
import { call, ORIGIN, signIn } from './helpers';

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

const tomorrowWeekday = () => {
  const d = new Date(Date.now() + 3 * 86_400_000);
  while (d.getUTCDay() === 0 || d.getUTCDay() === 6) d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
};

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
  { method: 'GET', path: '/api/admin/rate-limit-stats', admin: true },
  { method: 'GET', path: '/api/admin/appointments', admin: true },
  { method: 'PATCH', path: '/api/admin/appointments/1', admin: true, valid: { status: 'confirmed' } },
  { method: 'GET', path: '/api/admin/subscribers', admin: true },
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
  { method: 'POST', path: '/api/admin/content/publish', admin: true, valid: { basedOn: 1 } },
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

// --- D1 fingerprint -------------------------------------------------------------------------

/** The tables the migrations made: the schema does not change while the fuzzer runs. */
let tables: string[] | undefined;

/** Every row of every table (but `exclude`), read in ONE D1 batch: the fuzzer reads it twice a run. */
async function fingerprint(exclude: string[] = []): Promise<string> {
  tables ??= (
    await env.DB.prepare(
      "select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like '_cf_%' and name <> 'd1_migrations' order by name",
    ).all<{ name: string }>()
  ).results.map((row) => row.name);
  const read = tables.filter((name) => !exclude.includes(name));
  const rows = await env.DB.batch(read.map((name) => env.DB.prepare(`select * from "${name}"`)));
  return read.map((name, i) => `${name}:${JSON.stringify(rows[i].results)}`).join('\n');
}

// --- the properties

/** One property test per route: `fuzz <METHOD> <path>`. */
export function fuzzRoutes(routes: RouteSpec[]): void {
  describe.each(routes)('fuzz $method $path', (route) => {
    it(`answers only expected statuses and rejects without writing (${RUNS} runs)`, { timeout: 240_000 }, async () => {
      const cookie = route.admin ? await signIn(undefined, '10.255.255.254') : undefined;
      const hasBody = route.method !== 'GET';
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
            const before = await fingerprint(route.mayWriteOnReject);
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
            if (res.status >= 400) expect(await fingerprint(route.mayWriteOnReject)).toBe(before);
          },
        ),
        { numRuns: RUNS },
      );
    });
  });
}
