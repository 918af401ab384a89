// `npm run bench:portal`: a 25 MB file into the client portal's storage and back out, on the local
// stack (workerd, its local R2 and D1, as `wrangler dev --local` runs them), with the time of each
// way and the memory of the workerd process that runs the worker.
//
// The portal has no routes yet, so the bench serves the storage services through a test-only worker
// entry (bench/portal-worker.ts), from a wrangler config of its own written to a temporary
// directory: the real bindings (DOCUMENTS, DB with every migration), a fresh random PORTAL_FILE_KEYS,
// no assets. The upload streams from this process with its Content-Length (as a browser's form
// upload does); the download is read as a stream and checked byte for byte (SHA-256).
//
// Memory, sampled every 10 ms or so while each way runs, against its value at rest after a small
// warm-up file: the worker isolate's memory in use (Runtime.getHeapUsage through the inspector: its
// V8 heap, its ArrayBuffers' bytes and workerd's share for it), the figure the platform's 128 MB
// limit is about, as it runs: garbage V8 has not collected yet counts too, so it is an upper bound; and the resident set of the workerd processes
// (VmRSS in /proc, Linux only), which also holds wrangler's proxy worker, the local R2 and D1
// simulators and buffers V8 has not collected yet: an upper bound, not the Worker's own. A worker
// that held the file whole would show 25 MB more heap per copy.
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { unstable_startWorker } from 'wrangler';
import { projectRoot } from './lib/local-server.ts';
import { readRawWranglerConfig } from './lib/wrangler-config.ts';

const SIZE = Number(process.env.BENCH_PORTAL_BYTES ?? 25 * 1024 * 1024);
const MB = 1024 * 1024;

const dir = mkdtempSync(join(tmpdir(), 'cpa-bench-portal-'));
const persist = join(dir, 'state');
const base = readRawWranglerConfig() as { compatibility_date: string; compatibility_flags?: string[] };
const config = join(dir, 'wrangler.json');
writeFileSync(
  config,
  JSON.stringify({
    name: 'bench-portal',
    main: join(projectRoot, 'bench/portal-worker.ts'),
    compatibility_date: base.compatibility_date,
    compatibility_flags: base.compatibility_flags ?? [],
    d1_databases: [{ binding: 'DB', database_name: 'bench-portal-db', migrations_dir: join(projectRoot, 'migrations') }],
    r2_buckets: [{ binding: 'DOCUMENTS' }],
  }),
);
const envFile = join(dir, 'empty.env');
writeFileSync(envFile, '');

const wrangler = join(projectRoot, 'node_modules/.bin/wrangler');
const migrated = spawnSync(wrangler, ['d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', persist, '--config', config], {
  cwd: projectRoot,
  stdio: ['ignore', 'pipe', 'pipe'],
  env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: '1' },
});
if (migrated.status !== 0) {
  process.stderr.write(migrated.stderr);
  throw new Error('wrangler d1 migrations apply failed');
}

const key = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64');
const worker = await unstable_startWorker({
  config,
  envFiles: [envFile],
  bindings: { PORTAL_FILE_KEYS: { type: 'plain_text', value: `bench:${key}` } },
  dev: { remote: false, server: { hostname: '127.0.0.1', port: 0 }, inspector: { hostname: '127.0.0.1', port: 0 }, persist, watch: false, liveReload: false, logLevel: 'error' },
});

/**
 * The worker isolate's memory in use (Runtime.getHeapUsage over the inspector, the DevTools
 * protocol): its V8 heap, what workerd keeps for it, and the ArrayBuffers' bytes (which sit outside
 * the heap: a file held whole would be there). Garbage not yet collected counts too.
 */
async function isolateHeap(): Promise<() => Promise<number>> {
  const inspector = String(await worker.inspectorUrl).replace(/^ws/, 'http');
  const targets = (await (await fetch(new URL('/json', inspector))).json()) as { webSocketDebuggerUrl: string }[];
  // wrangler's inspector proxy wants an Origin of this machine (Node's WebSocket takes headers as an extension).
  const socket = new WebSocket(targets[0].webSocketDebuggerUrl, { headers: { origin: 'http://127.0.0.1' } } as unknown as string[]);
  await new Promise((resolve, reject) => {
    socket.addEventListener('open', resolve);
    socket.addEventListener('error', reject);
  });
  let id = 0;
  const waiting = new Map<number, (used: number) => void>();
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: { usedSize: number; embedderHeapUsedSize?: number; backingStorageSize?: number } };
    const used = message.result ? message.result.usedSize + (message.result.embedderHeapUsedSize ?? 0) + (message.result.backingStorageSize ?? 0) : 0;
    if (message.id !== undefined) waiting.get(message.id)?.(used);
  });
  const call = (method: string) =>
    new Promise<number>((resolve) => {
      waiting.set(++id, resolve);
      socket.send(JSON.stringify({ id, method }));
    });
  // A live figure (after a forced collection) is out of reach: workerd's inspector leaves HeapProfiler.collectGarbage unanswered.
  return () => call('Runtime.getHeapUsage');
}

/** The workerd processes this one started (their resident sets are what is measured). */
function workerdPids(): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  const found: number[] = [];
  const walk = (pid: number) => {
    for (const child of children.get(pid) ?? []) {
      try {
        if (readFileSync(`/proc/${child}/comm`, 'utf8').trim() === 'workerd') found.push(child);
      } catch {
        // gone meanwhile
      }
      walk(child);
    }
  };
  walk(process.pid);
  return found;
}
const rss = (pids: number[]) =>
  pids.reduce((sum, pid) => {
    try {
      return sum + Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
    } catch {
      return sum;
    }
  }, 0);

/** Runs `work` while sampling the workerd processes' resident set and the isolate's heap: its time and both peaks. */
async function measured<T>(work: () => Promise<T>, heap: () => Promise<number>): Promise<{ result: T; ms: number; peak: number; heapPeak: number }> {
  const pids = workerdPids();
  let peak = rss(pids);
  let heapPeak = await heap();
  let running = true;
  const sampler = (async () => {
    while (running) {
      peak = Math.max(peak, rss(pids));
      heapPeak = Math.max(heapPeak, await heap());
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  const started = performance.now();
  try {
    const result = await work();
    return { result, ms: performance.now() - started, peak: Math.max(peak, rss(pids)), heapPeak };
  } finally {
    running = false;
    await sampler;
  }
}

function fileOf(size: number): Buffer {
  const bytes = Buffer.alloc(size);
  for (let at = 0; at < size; at += 65_536) crypto.getRandomValues(bytes.subarray(at, Math.min(size, at + 65_536)));
  bytes.write('%PDF-1.7\n', 0, 'latin1');
  return bytes;
}

/** Uploads as a stream of 64 KiB pieces with the declared length. */
async function upload(url: URL, bytes: Buffer): Promise<number> {
  let at = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.subarray(at, at + 65_536));
      at += 65_536;
    },
  });
  const res = await fetch(new URL('/store', url), { method: 'POST', body, headers: { 'content-length': String(bytes.length) }, duplex: 'half' } as RequestInit);
  const answer = (await res.json()) as { ok: boolean; file?: { id: number }; reason?: string };
  if (!answer.ok || !answer.file) throw new Error(`upload refused: ${JSON.stringify(answer)}`);
  return answer.file.id;
}

/** Downloads as a stream, hashing as it goes; the bytes and their SHA-256. */
async function download(url: URL, id: number): Promise<{ bytes: number; sha256: string }> {
  const res = await fetch(new URL(`/read/${id}`, url));
  if (!res.ok || !res.body) throw new Error(`download failed: ${res.status} ${await res.text()}`);
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const piece of res.body as unknown as AsyncIterable<Uint8Array>) {
    hash.update(piece);
    bytes += piece.length;
  }
  return { bytes, sha256: hash.digest('hex') };
}

const fmt = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;
try {
  const url = await worker.url;
  // Warm-up: the modules loaded, the key imported, the tables touched.
  const warm = await upload(url, fileOf(300 * 1024));
  await download(url, warm);
  const pids = workerdPids();
  if (pids.length === 0) console.log('(no workerd process found under this one: memory not measured)');
  const atRest = rss(pids);
  const heap = await isolateHeap();
  const heapAtRest = await heap();

  const file = fileOf(SIZE);
  const expected = createHash('sha256').update(file).digest('hex');
  const up = await measured(() => upload(url, file), heap);
  const down = await measured(() => download(url, up.result), heap);
  if (down.result.bytes !== SIZE || down.result.sha256 !== expected) throw new Error(`the download differs from the upload (${down.result.bytes} bytes)`);

  const rate = (ms: number) => `${((SIZE / MB) / (ms / 1000)).toFixed(1)} MB/s`;
  console.log(`Portal storage, a ${fmt(SIZE)} file on the local stack (workerd ${pids.join(', ')}):`);
  for (const [label, way] of [['upload  ', up], ['download', down]] as const) {
    console.log(`  ${label} ${way.ms.toFixed(0).padStart(6)} ms ${rate(way.ms).padStart(11)}   isolate memory peak ${fmt(way.heapPeak)} (at rest ${fmt(heapAtRest)})   workerd resident peak ${fmt(way.peak)} (at rest ${fmt(atRest)})`);
  }
  console.log('  the download matched the upload byte for byte (SHA-256)');
} finally {
  await worker.dispose();
  rmSync(dir, { recursive: true, force: true });
}
