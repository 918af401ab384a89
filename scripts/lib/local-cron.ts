// The Cron Trigger, locally. On Cloudflare wrangler.jsonc's "triggers" fires the worker's scheduled
// handler (worker/cron.ts) every minute; `wrangler dev` and the Vite plugin never fire it by
// themselves. Both expose it at /cdn-cgi/local/scheduled (Miniflare's trigger handlers, on in
// wrangler 4's dev server and in @cloudflare/vite-plugin, before any asset lookup, so "assets"
// cannot answer it the way it answers wrangler's older /__scheduled). `npm start` and `npm run dev`
// call it at the start of every minute, so a reminder, a newsletter batch or the monthly issue goes
// out locally as it would in production, without any manual call. CRON=off turns it off, for a run
// whose ticks a test drives itself. LOCAL_CRON_SECONDS=n (1-60) ticks every n seconds instead, so
// the test of `npm start` need not wait up to a minute for its first tick.
import { readWranglerConfig } from './wrangler-config.ts';

/** The path both local servers answer with one invocation of the scheduled handler. */
export const SCHEDULED_PATH = '/cdn-cgi/local/scheduled';

/** False when CRON=off (any case): the local server then never fires the scheduled handler itself. */
export function localCronEnabled(env: Record<string, string | undefined> = process.env): boolean {
  return (env.CRON ?? '').trim().toLowerCase() !== 'off';
}

/** wrangler.jsonc's "triggers" crons (the local cron passes the first as the controller's cron). */
export function configuredCrons(config: { triggers?: { crons?: string[] } } = readWranglerConfig()): string[] {
  return config.triggers?.crons ?? [];
}

/** Seconds between ticks: LOCAL_CRON_SECONDS (a whole number from 1 to 60), else 60 as on Cloudflare. */
export function localCronSeconds(env: Record<string, string | undefined> = process.env): number {
  const raw = (env.LOCAL_CRON_SECONDS ?? '').trim();
  if (!raw) return 60;
  const seconds = Number(raw);
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > 60) throw new Error(`LOCAL_CRON_SECONDS must be a whole number of seconds from 1 to 60 (got ${JSON.stringify(raw)})`);
  return seconds;
}

export interface LocalCron {
  stop: () => void;
}

/**
 * Fires `${url}/cdn-cgi/local/scheduled` at the start of every minute (or of every `seconds`), with
 * that instant as the scheduled time, as Cloudflare's every-minute trigger does. A tick still running
 * when the next is due delays it rather than overlapping it (the handler is safe under overlap, but a
 * local run has no reason to pile them up). A failed tick is reported and the next one runs as usual.
 */
export function startLocalCron(url: string, cron = configuredCrons()[0] ?? '* * * * *', seconds = 60): LocalCron {
  const periodMs = seconds * 1000;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const tick = async (scheduledTime: number) => {
    const address = `${url}${SCHEDULED_PATH}?cron=${encodeURIComponent(cron)}&time=${scheduledTime}`;
    try {
      const res = await fetch(address);
      if (!res.ok) console.error(`Cron tick at ${new Date(scheduledTime).toISOString()} failed: ${res.status} ${(await res.text()).slice(0, 200)}`);
    } catch (error) {
      console.error(`Cron tick at ${new Date(scheduledTime).toISOString()} could not reach ${url}: ${(error as Error).message}`);
    }
  };
  const scheduleNext = () => {
    if (stopped) return;
    const next = Math.floor(Date.now() / periodMs) * periodMs + periodMs;
    timer = setTimeout(() => void tick(next).finally(scheduleNext), next - Date.now());
  };
  scheduleNext();
  return {
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
