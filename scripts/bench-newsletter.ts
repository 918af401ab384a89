// `npm run bench:newsletter`: the newsletter pipeline at scale, with a crash in the middle.
//
// 10,000 subscribers come in through the admin's CSV import (docs/product.md §5.10: the file parsed
// as the browser parses it, its rows staged 500 a request with one chunk sent twice, the consent
// confirmed as already given, runs of 500 with two of them at once), into a fresh local D1 that
// already holds 100 suppressed addresses the file lists again; the real worker under `wrangler dev --local`
// sends through its MailChannels transport, pointed (MAILCHANNELS_API_URL) at a fake MailChannels:
// a real HTTP server on 127.0.0.1 that records every request. The first issue is a scheduled one
// (docs/product.md §5.9): the admin saves a draft and schedules it for a minute in the firm's zone;
// a tick the minute before starts nothing, the tick of that minute claims it and sends its first
// batch, and the Cron Trigger (fired through Miniflare's /cdn-cgi/local/scheduled, with that minute
// as its scheduled time) sends the rest, one batch per invocation. At about
// half, the fake stops answering and wrangler is killed (SIGKILL) while an invocation is waiting
// for the provider: that batch reached the provider but its outcome was never recorded. wrangler
// restarts on the same database and the following cron ticks finish the send. The next issue is
// sent by hand (the Send Newsletter dialog's route), so both ways a newsletter starts are measured.
//
// 2% of the recipients bounce: the fake provider reports them to the worker's
// /api/webhooks/mailchannels as MailChannels does (batched hard-bounced events, signed with an
// ed25519 key whose public key the fake serves at /tx/v1/webhook/public-key), retrying while the
// worker is down. The worker verifies them with its real code and suppresses the addresses; a
// second newsletter must then skip every one of them.
import { type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { firm } from '#core/content/firm';
import { firmDateParts } from '#core/firm-time';
import { readSubscriberCsv } from '#core/subscriber-import-csv';
import { contentDigest } from '../worker/services/email/webhook-signature.ts';
import { bytesToBase64 } from '#core/encoding';
import { SCHEDULED_PATH } from './lib/local-cron.ts';
import { applyLocalMigrations, executeLocalSql, projectRoot, startDevServer } from './lib/local-server.ts';
import { readRawWranglerConfig } from './lib/wrangler-config.ts';

const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 10_000);
const BATCH_SIZE = process.env.NEWSLETTER_BATCH_SIZE ?? '40';
const KILL_AT = Math.floor(SUBSCRIBERS / 2);
const ADMIN = { username: 'bench-admin', password: 'bench-password-123' };

// ---- the fake MailChannels -------------------------------------------------------------------
/** Every BOUNCE_EVERY-th subscriber's mailbox does not exist (2%). */
const BOUNCE_EVERY = 50;
const bounces = (email: string) => Number(/^subscriber(\d+)@/.exec(email)?.[1] ?? 0) % BOUNCE_EVERY === 0;
const WEBHOOK_KEY_ID = 'bench-webhook-key';
/** The fake's account id: the customer_handle of its events, and the worker's MAILCHANNELS_ACCOUNT_ID (without it the webhook refuses every event). */
const ACCOUNT_ID = 'bench-account';
const webhookKeys = (await crypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify'])) as CryptoKeyPair;
const webhookPublicKey = bytesToBase64((await crypto.subtle.exportKey('spki', webhookKeys.publicKey)) as ArrayBuffer);
/** Bounce events waiting to be posted (MailChannels batches them), and the figures of their delivery. */
let pendingEvents: object[] = [];
const webhook = { posts: 0, events: 0, refusedOrDown: 0 };
let webhookTarget: string | null = null;

/** Signs a body as MailChannels does: Content-Digest and an RFC 9421 ed25519 signature over it. */
async function signedHeaders(body: string): Promise<Record<string, string>> {
  const digest = await contentDigest(body);
  const params = `("content-digest");created=${Math.floor(Date.now() / 1000)};alg="ed25519";keyid="${WEBHOOK_KEY_ID}"`;
  const base = `"content-digest": ${digest}\n"@signature-params": ${params}`;
  const signature = await crypto.subtle.sign({ name: 'Ed25519' }, webhookKeys.privateKey, new TextEncoder().encode(base));
  return { 'content-type': 'application/json', 'content-digest': digest, 'signature-input': `sig_mc=${params}`, signature: `sig_mc=:${bytesToBase64(signature)}:` };
}

/**
 * Posts the waiting events; a failed post keeps them for the next flush, as MailChannels retries.
 * One post at a time (the interval and the final loop share it): two overlapping posts each cut
 * their batch's length off the queue when they end, and the second cut dropped events never posted.
 */
let flushing: Promise<void> | null = null;
function flushEvents(): Promise<void> {
  flushing ??= postEvents().finally(() => {
    flushing = null;
  });
  return flushing;
}

async function postEvents(): Promise<void> {
  if (!webhookTarget || pendingEvents.length === 0) return;
  const batch = pendingEvents.slice(0, 1000);
  const body = JSON.stringify(batch);
  try {
    const res = await fetch(webhookTarget, { method: 'POST', headers: await signedHeaders(body), body });
    if (!res.ok) throw new Error(`${res.status} ${await res.text()}`);
    pendingEvents = pendingEvents.slice(batch.length);
    webhook.posts++;
    webhook.events += batch.length;
  } catch {
    webhook.refusedOrDown++;
  }
}
const flusher = setInterval(() => void flushEvents(), 250);

const received: string[] = [];
/** Per newsletter subject, every recipient the provider was asked to deliver to. */
const receivedBySubject = new Map<string, string[]>();
let holding = false;
const held: ServerResponse[] = [];
let onThreshold: (() => void) | null = null;

const provider = createServer((req: IncomingMessage, res: ServerResponse) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    if (req.url?.startsWith('/tx/v1/webhook/public-key')) {
      const id = new URL(req.url, 'http://fake').searchParams.get('id');
      if (id !== WEBHOOK_KEY_ID) res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"key not found"}');
      else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id, key: webhookPublicKey }));
      return;
    }
    if (req.url !== '/tx/v1/send' || req.headers['x-api-key'] !== 'bench-key') {
      res.writeHead(404).end();
      return;
    }
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { subject: string; personalizations: { to: { email: string }[] }[] };
    const requestId = `bench-${received.length + 1}`;
    const bySubject = receivedBySubject.get(body.subject) ?? [];
    receivedBySubject.set(body.subject, bySubject);
    for (const p of body.personalizations) {
      for (const to of p.to) {
        received.push(to.email);
        bySubject.push(to.email);
        if (bounces(to.email)) {
          pendingEvents.push({
            email: 'newsletter@northgatecpa.example',
            customer_handle: ACCOUNT_ID,
            timestamp: Math.floor(Date.now() / 1000),
            event: 'hard-bounced',
            request_id: requestId,
            recipients: [to.email],
            status: '5.1.1',
            reason: '550 5.1.1 The email account that you tried to reach does not exist',
          });
        }
      }
    }
    if (holding) {
      held.push(res); // accepted by the provider, but the answer never gets back
      return;
    }
    res.writeHead(202, { 'content-type': 'application/json' }).end(JSON.stringify({ request_id: requestId }));
    if (received.length >= KILL_AT && onThreshold) {
      const fire = onThreshold;
      onThreshold = null;
      fire();
    }
  });
});
await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
const providerUrl = `http://127.0.0.1:${(provider.address() as AddressInfo).port}/tx/v1`;

// ---- a fresh local D1 holding only suppressed addresses; the subscribers come by import ------
/** Addresses that bounced before: the import file lists them again, and must not re-activate them. */
const SUPPRESSED = 100;
const workDir = mkdtempSync(join(tmpdir(), 'bench-newsletter-'));
const persistTo = join(workDir, 'state');
applyLocalMigrations(persistTo);
executeLocalSql(
  `INSERT INTO newsletter_subscriptions (email, active, suppressed_at, suppression_reason, suppression_detail)
   WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${SUPPRESSED})
   SELECT 'suppressed' || i || '@bench.example', 'false', 1, 'bounced', 'hard-bounced: 550' FROM n;`,
  persistTo,
);
// A Mailchimp-style export: the subscribers, the suppressed addresses among them.
const csvLines = ['"Email Address","First Name","Last Name","OPTIN_TIME"'];
for (let i = 1; i <= SUBSCRIBERS; i++) {
  csvLines.push(`"subscriber${i}@bench.example","Reader","${i}","2024-01-15 10:00:00"`);
  if (i % Math.floor(SUBSCRIBERS / SUPPRESSED) === 0) csvLines.push(`"suppressed${i / Math.floor(SUBSCRIBERS / SUPPRESSED)}@bench.example","Gone","Away",""`);
}
const csv = csvLines.join('\r\n');

// wrangler.jsonc without "assets" (with Workers Static Assets the 404 page would answer a path the
// worker should see). Written under .wrangler/ (git-ignored), so paths point one level up.
const configDir = join(projectRoot, '.wrangler');
mkdirSync(configDir, { recursive: true });
const configPath = join(configDir, 'bench-newsletter.json');
const benchConfig = readRawWranglerConfig();
delete benchConfig.assets;
delete benchConfig.env;
delete benchConfig.$schema;
benchConfig.main = '../worker/index.ts';
benchConfig.d1_databases = benchConfig.d1_databases?.map((db: { migrations_dir?: string }) => ({ ...db, migrations_dir: '../migrations' }));
writeFileSync(configPath, JSON.stringify(benchConfig, null, 2));

interface TickStats {
  source?: string;
  /** The cron's scheduled-draft outcome ('created' when that tick started a scheduled issue). */
  draft?: string;
  claimed: number;
  providerRequests: number;
  d1Calls: number;
  subrequests: number;
  status: string | null;
}
const ticks: TickStats[] = [];

async function start(port: number) {
  const server = await startDevServer({
    port,
    persistTo,
    pipeOutput: true,
    testScheduled: true,
    configPath,
    admin: { ...ADMIN, jwtSecret: 'bench-secret-0123456789abcdef0123456789abcdef' },
    vars: {
      MAILCHANNELS_API_KEY: 'bench-key',
      MAILCHANNELS_ACCOUNT_ID: ACCOUNT_ID,
      MAILCHANNELS_API_URL: providerUrl,
      NEWSLETTER_BATCH_SIZE: BATCH_SIZE,
      // Claims older than this count as interrupted; wrangler's restart takes longer than this.
      NEWSLETTER_CLAIM_LEASE_SECONDS: '5',
      SITE_URL: 'https://www.northgatecpa.example',
    },
  });
  watchOutput(server.process);
  return server;
}

function watchOutput(child: ChildProcess) {
  let buffer = '';
  const onData = (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      const at = line.indexOf('[newsletter-batch] ');
      if (at >= 0) ticks.push(JSON.parse(line.slice(at + '[newsletter-batch] '.length)) as TickStats);
    }
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
}

function killHard(child: ChildProcess) {
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}

/**
 * One Cron Trigger invocation at `time` (ms; now when not given), through Miniflare's trigger
 * handler, the one `npm start`'s local cron calls: unlike wrangler's /__scheduled it takes the
 * scheduled time, so the scheduled issue's minute need not be waited for. It answers "ok".
 */
const cron = (url: string, time = Date.now()) => fetch(`${url}${SCHEDULED_PATH}?cron=${encodeURIComponent('* * * * *')}&time=${time}`);
const handled = (res: Response, text: string) => res.ok && text.trim() === 'ok';

const port = 9300 + Math.floor(Math.random() * 300);
const started = performance.now();
let server = await start(port);
webhookTarget = `${server.url}/api/webhooks/mailchannels`;

// The admin signs in, saves the issue as a draft and schedules it for a minute at least two ahead.
const login = await fetch(`${server.url}/api/admin/login`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(ADMIN),
});
if (!login.ok) throw new Error(`login failed: ${login.status}`);
const cookie = login.headers.getSetCookie()[0].split(';')[0];

// The import, through the admin API as the import dialog drives it.
const importStarted = performance.now();
const adminPost = (path: string, body?: unknown) =>
  fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie, origin: server.url },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
const parsed = readSubscriberCsv(csv);
if (!parsed.ok) throw new Error(parsed.message);
const createdImport = await adminPost('/api/admin/subscriber-imports', { fileName: 'bench-members.csv' });
if (!createdImport.ok) throw new Error(`import failed: ${createdImport.status} ${await createdImport.text()}`);
const { id: importId } = (await createdImport.json()) as { id: number };
let importRequests = 1;
for (let i = 0; i < parsed.rows.length; i += 500) {
  const chunk = { importId, rows: parsed.rows.slice(i, i + 500) };
  // The first chunk goes twice, as a retry after a lost answer would send it.
  for (let n = 0; n < (i === 0 ? 2 : 1); n++) {
    const res = await adminPost('/api/admin/subscriber-imports/rows', chunk);
    importRequests++;
    if (!res.ok) throw new Error(`staging failed: ${res.status} ${await res.text()}`);
  }
}
const dryRun = (await (await fetch(`${server.url}/api/admin/subscriber-imports/${importId}`, { headers: { cookie } })).json()) as {
  rows: number;
  counts: { new: number; alreadySubscribed: number; suppressed: number; duplicates: number; invalid: number };
};
importRequests++;
const confirmedImport = await adminPost(`/api/admin/subscriber-imports/${importId}/confirm`, { consent: 'given', consentConfirmed: true });
if (!confirmedImport.ok) throw new Error(`confirm failed: ${confirmedImport.status} ${await confirmedImport.text()}`);
importRequests++;
let importStatus = 'importing';
let importRuns = 0;
while (importStatus !== 'done') {
  // Two runs at once (a second tab, a retry): each takes its own window, or none.
  const answers = await Promise.all([0, 1].map(() => adminPost(`/api/admin/subscriber-imports/${importId}/run`)));
  importRuns += 2;
  for (const res of answers) {
    if (!res.ok) throw new Error(`run failed: ${res.status} ${await res.text()}`);
    importStatus = ((await res.json()) as { status: string }).status === 'done' ? 'done' : importStatus;
  }
  if (importRuns > 200) throw new Error('the import does not finish');
}
importRequests += importRuns;
const importSeconds = (performance.now() - importStarted) / 1000;

const saved = await adminPost('/api/admin/newsletter/drafts', { subject: 'Bench newsletter', content: '<h2>Year-end tax moves</h2><p>Hello from the benchmark. <a href="https://www.irs.gov/">The IRS news</a>.</p>' });
if (!saved.ok) throw new Error(`saving the draft failed: ${saved.status} ${await saved.text()}`);
const { draft } = (await saved.json()) as { draft: { id: number } };
const scheduledAt = Math.ceil((Date.now() + 120_000) / 60_000) * 60_000;
const wall = firmDateParts(firm.timeZone, new Date(scheduledAt));
const pad = (n: number) => String(n).padStart(2, '0');
const scheduled = await adminPost(`/api/admin/newsletter/drafts/${draft.id}/schedule`, {
  date: `${wall.year}-${pad(wall.month)}-${pad(wall.day)}`,
  time: `${pad(wall.hour)}:${pad(wall.minute)}`,
});
if (!scheduled.ok) throw new Error(`scheduling failed: ${scheduled.status} ${await scheduled.text()}`);
const sentList = async () => (await (await fetch(`${server.url}/api/admin/sent-newsletters`, { headers: { cookie } })).json()) as { subject: string }[];
// The minute before: nothing starts.
await (await cron(server.url, scheduledAt - 60_000)).text();
const startedEarly = (await sentList()).length;

// Cron ticks until the fake provider has seen half the recipients; then the crash.
const crashed = new Promise<void>((resolve) => {
  onThreshold = () => {
    holding = true;
    // Let the rest of the in-flight batch reach the provider, then kill wrangler mid-invocation.
    setTimeout(() => {
      killHard(server.process);
      resolve();
    }, 500);
  };
});
let crashDone = false;
void crashed.then(() => {
  crashDone = true;
});
let ticksBeforeCrash = 0;
console.log(`bench: issue scheduled for ${new Date(scheduledAt).toISOString()}; cron ticks until the provider has seen ${KILL_AT} recipients, then the crash`);
while (!crashDone) {
  let res: Response;
  try {
    // Its minute (the first of these ticks claims the issue; the others send batches).
    res = await cron(server.url, scheduledAt);
  } catch {
    break; // the server died under the tick
  }
  const text = await res.text();
  if (!handled(res, text)) throw new Error(`cron tick not handled by the worker: ${res.status} ${text.slice(0, 80)}`);
  ticksBeforeCrash++;
  if (ticksBeforeCrash > SUBSCRIBERS) throw new Error('no progress');
}
await crashed;
const receivedAtCrash = received.length;
for (const res of held) res.destroy();
held.length = 0;
holding = false;
const ticksLoggedBeforeCrash = ticks.length;
const startedByDraftTicks = ticks.filter((t) => t.draft === 'created').length;

// Restart on the same database; the next cron ticks finish the rest.
console.log(`bench: wrangler killed after ${ticksBeforeCrash} ticks with ${receivedAtCrash} recipients at the provider; restarting`);
await new Promise((resolve) => setTimeout(resolve, 1000));
server = await start(port + 1);
webhookTarget = `${server.url}/api/webhooks/mailchannels`;
let status = 'sending';
let ticksAfterCrash = 0;
for (let i = 0; i < 1000 && status !== 'sent'; i++) {
  const res = await cron(server.url);
  const text = await res.text();
  if (!handled(res, text)) throw new Error(`cron tick not handled by the worker: ${res.status} ${text.slice(0, 80)}`);
  ticksAfterCrash++;
  const list = (await (await fetch(`${server.url}/api/admin/sent-newsletters`, { headers: { cookie } })).json()) as {
    status: string;
    recipientCount: number;
    failedCount: number;
    totalRecipients: number;
  }[];
  status = list[0]?.status ?? 'missing';
}
const wallSeconds = (performance.now() - started) / 1000;
const [newsletter] = (await (await fetch(`${server.url}/api/admin/sent-newsletters`, { headers: { cookie } })).json()) as {
  status: string;
  recipientCount: number;
  failedCount: number;
  totalRecipients: number;
}[];

// Every bounce reported, then what the list learnt from them.
const expectedBounces = Array.from({ length: SUBSCRIBERS }, (_, i) => `subscriber${i + 1}@bench.example`).filter(bounces);
for (let i = 0; i < 200 && pendingEvents.length > 0; i++) {
  await flushEvents();
  if (pendingEvents.length > 0) await new Promise((resolve) => setTimeout(resolve, 250));
}
clearInterval(flusher);
const subscribers = (await (await fetch(`${server.url}/api/admin/subscribers`, { headers: { cookie } })).json()) as { email: string; status: string }[];
// (The addresses suppressed before the import are counted apart.)
const suppressed = new Set(subscribers.filter((s) => s.status === 'bounced' && s.email.startsWith('subscriber')).map((s) => s.email));
const stats = (await (await fetch(`${server.url}/api/admin/newsletter/stats`, { headers: { cookie } })).json()) as { activeSubscribers: number };

// The next issue: the admin sends it, the cron finishes it; the bounced addresses must not be in it.
const SECOND = 'Bench newsletter, the next issue';
const second = await fetch(`${server.url}/api/admin/send-newsletter`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', cookie },
  body: JSON.stringify({ subject: SECOND, content: '<h2>Next month</h2><p>The following issue.</p>' }),
});
if (!second.ok) throw new Error(`second send failed: ${second.status} ${await second.text()}`);
let secondStatus = 'sending';
for (let i = 0; i < 1000 && secondStatus !== 'sent'; i++) {
  await cron(server.url);
  const list = (await (await fetch(`${server.url}/api/admin/sent-newsletters`, { headers: { cookie } })).json()) as { subject: string; status: string }[];
  secondStatus = list.find((n) => n.subject === SECOND)?.status ?? 'missing';
}
const secondRecipients = receivedBySubject.get(SECOND) ?? [];
const suppressedMailed = received.filter((email) => email.startsWith('suppressed')).length;
const activeSuppressed = subscribers.filter((s) => s.email.startsWith('suppressed') && s.status !== 'bounced').length;
const bouncedMailedAgain = secondRecipients.filter((email) => suppressed.has(email) || bounces(email)).length;
await server.stop();
provider.close();

// ---- the figures ---------------------------------------------------------------------------
// The first issue's deliveries (the provider also saw the next issue's, counted apart above).
const firstIssue = receivedBySubject.get('Bench newsletter') ?? [];
const counts = new Map<string, number>();
for (const email of firstIssue) counts.set(email, (counts.get(email) ?? 0) + 1);
const duplicates = [...counts.values()].filter((n) => n > 1).length;
let missing = 0;
for (let i = 1; i <= SUBSCRIBERS; i++) if (!counts.has(`subscriber${i}@bench.example`)) missing++;
const maxSubrequests = Math.max(...ticks.map((t) => t.subrequests));
const d1Queries = ticks.reduce((sum, t) => sum + t.d1Calls, 0);

const rows: [string, string | number][] = [
  ['subscribers', SUBSCRIBERS],
  ['first issue: scheduled, started by', `the tick of its minute (${startedByDraftTicks} tick started it; the tick the minute before started ${startedEarly})`],
  ['import: rows in the file (+ suppressed addresses listed again)', `${dryRun.rows} (${SUBSCRIBERS} + ${dryRun.rows - SUBSCRIBERS})`],
  ['import: dry run', `new ${dryRun.counts.new}, already subscribed ${dryRun.counts.alreadySubscribed}, suppressed ${dryRun.counts.suppressed}, duplicates ${dryRun.counts.duplicates}, invalid ${dryRun.counts.invalid}`],
  ['import: requests (staging 500 a request, one chunk twice; runs two at a time)', `${importRequests} (${importRuns} runs), ${importSeconds.toFixed(1)} s`],
  ['import: suppressed re-activated or mailed (must be 0)', activeSuppressed + suppressedMailed],
  ['batch size (NEWSLETTER_BATCH_SIZE)', BATCH_SIZE],
  ['wall time', `${wallSeconds.toFixed(1)} s (includes two wrangler starts)`],
  ['invocations, first issue (cron ticks)', `${ticksLoggedBeforeCrash + ticksAfterCrash} logged (${ticksLoggedBeforeCrash} before the crash, ${ticksAfterCrash} cron ticks after; the killed one never logged)`],
  ['invocations, both issues', ticks.length],
  ['recipients handed to the provider (first issue)', firstIssue.length],
  ['  of which before the crash', receivedAtCrash],
  ['largest subrequests in one invocation', `${maxSubrequests} (D1 calls + provider requests; limit 50 free / 1000 paid)`],
  ['D1 queries (all logged invocations, both issues)', d1Queries],
  ['recipients delivered (provider saw them)', counts.size],
  ['duplicates (must be 0)', duplicates],
  ['missing (must be 0)', missing],
  ['newsletter status', newsletter.status],
  ['recipientCount (confirmed by the provider)', `${newsletter.recipientCount} of ${newsletter.totalRecipients}`],
  ['outcome unknown (interrupted, not retried)', newsletter.failedCount],
  ['bouncing recipients (2%)', expectedBounces.length],
  ['bounce events posted to the webhook', `${webhook.events} in ${webhook.posts} signed requests (${webhook.refusedOrDown} posts retried: worker down or refusing)`],
  ['suppressed as bounced (must equal the bouncing)', `${suppressed.size}${expectedBounces.every((e) => suppressed.has(e)) ? ', every bouncing address' : ', NOT every bouncing address'}`],
  ['active subscribers afterwards', stats.activeSubscribers],
  ['next issue: recipients', `${secondRecipients.length} (${secondStatus})`],
  ['next issue: bounced addresses mailed (must be 0)', bouncedMailedAgain],
];
const width = Math.max(...rows.map(([k]) => k.length));
console.log('\nbench:newsletter');
for (const [k, v] of rows) console.log(`  ${k.padEnd(width)}  ${v}`);
rmSync(workDir, { recursive: true, force: true });
const bounceFailures =
  suppressed.size !== expectedBounces.length ||
  bouncedMailedAgain !== 0 ||
  secondRecipients.length !== SUBSCRIBERS - expectedBounces.length ||
  secondStatus !== 'sent';
const importFailures = dryRun.counts.new !== SUBSCRIBERS || dryRun.counts.suppressed !== SUPPRESSED || activeSuppressed + suppressedMailed !== 0;
// The free plan's 50 subrequests per invocation (docs/operations.md) is a hard platform limit.
const scheduleFailures = startedEarly !== 0 || startedByDraftTicks !== 1;
if (duplicates !== 0 || missing !== 0 || newsletter.status !== 'sent' || bounceFailures || importFailures || scheduleFailures || maxSubrequests > 50) process.exitCode = 1;
