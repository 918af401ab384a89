import type { BatchItem } from 'drizzle-orm/batch';
import { type Db, getDb } from '../../db/client';
import type { Bindings } from '../../env';
import { countingD1 } from './d1-call-count';
import { safeErrorSummary } from './log-safe';

// What a domain hands the Cron Trigger (worker/cron.ts): its cron jobs and its prune statements,
// exported from the domain's door (worker/services/<domain>/index.ts, docs/architecture.md). The
// floor defines these shapes, the housekeeping job that runs every prune in one batch, and the
// runner that spends a tick's subrequest budget down the table; the cron's table lists the rows.

/**
 * A domain's cleanup in the tick's ONE housekeeping batch (one D1 call, whatever it covers). A
 * prune whose deleted rows are worth a log line names its figure (`counts`) and returns a
 * statement with RETURNING; the tick logs how many rows it returned.
 */
export interface Prune {
  /** What the tick logs the count of this prune's returned rows as, e.g. "chatConversations". */
  counts?: string;
  statements(db: Db, at: Date): BatchItem<'sqlite'>[];
}

/** What a job runs with: the tick's bindings and database (both count D1 calls), its time and its room. */
export interface Tick {
  env: Bindings;
  db: Db;
  at: Date;
  /** The subrequests this job may spend: the invocation's budget less what ran before and what the later jobs keep back. */
  room: number;
  /** D1 calls made so far in this invocation (each statement outside a batch, each batch). */
  d1Calls(): number;
}

/** What a job reports: the subrequests it spent (fetches and D1 calls) and the figures worth a log line. */
export interface JobReport {
  subrequests: number;
  /** Logged (with the job's name) when true; a job that found nothing to do stays quiet. */
  didWork: boolean;
  [figure: string]: unknown;
}

/**
 * One row of the cron's table: run in the table's order, each after the ones before it whatever
 * they did (a failure is logged as "<name> failed" and the next tick tries again).
 */
export interface Job {
  name: string;
  /** Subrequests kept back from the jobs before this one, so this one can always do some work. */
  reserve?: number;
  /** The invocation's budget this job needs at least (a paid plan's larger newsletter batch); the free plan's 50 otherwise. */
  needs?(env: Bindings): number;
  run(tick: Tick): Promise<JobReport>;
}

/**
 * A job that runs one pass, which reports its own subrequests and figures: `worked` says when the
 * figures are worth a log line (it found something due).
 */
export function passJob<R extends { subrequests: number }>(
  name: string,
  pass: (tick: Tick) => Promise<R>,
  worked: (result: R) => boolean,
  limits: Pick<Job, 'reserve' | 'needs'> = {},
): Job {
  return {
    name,
    ...limits,
    async run(tick) {
      const result = await pass(tick);
      return { ...result, didWork: worked(result) };
    },
  };
}

/** Workers' subrequests per invocation on the free plan: a tick's budget unless a job needs more. */
export const FREE_PLAN_SUBREQUESTS = 50;

/**
 * Every prune of the table in ONE D1 batch, whatever it covers (one subrequest), so the jobs after it
 * keep their room. A failure is logged and the next tick tries again; it never stops the jobs after
 * it. The figures are the counted prunes' rows (the last statement of each, with RETURNING).
 */
export function housekeepingJob(prunes: Prune[]): Job {
  return {
    name: 'Housekeeping',
    async run({ db, at }) {
      const planned = prunes.map((prune) => ({ counts: prune.counts, statements: prune.statements(db, at) }));
      const statements = planned.flatMap((prune) => prune.statements);
      try {
        const results = (await db.batch(statements as [BatchItem<'sqlite'>, ...BatchItem<'sqlite'>[]])) as unknown[];
        const figures: Record<string, number> = {};
        let end = 0;
        for (const prune of planned) {
          end += prune.statements.length;
          if (prune.counts) figures[prune.counts] = (figures[prune.counts] ?? 0) + (results[end - 1] as unknown[]).length;
        }
        return { subrequests: 1, didWork: Object.values(figures).some((count) => count > 0), ...figures };
      } catch (error) {
        console.error('Housekeeping failed; the next tick tries again', safeErrorSummary(error));
        return { subrequests: 1, didWork: false };
      }
    },
  };
}

/**
 * Runs a tick's table in order: each job gets the room the invocation's budget leaves it (the free
 * plan's 50, or more when a job needs more, e.g. a paid plan's larger newsletter batch) after what
 * the jobs before it spent and what the jobs after it keep back. A job's failure is logged as
 * "<name> failed" and costs the next one nothing; a job that did work is logged with its figures.
 */
export async function runJobs(table: Job[], env: Bindings, d1: D1Database, at: Date): Promise<void> {
  const counted = countingD1(d1);
  const tickEnv = { ...env, DB: counted.db };
  const db = getDb(counted.db);
  const budget = Math.max(FREE_PLAN_SUBREQUESTS, ...table.map((job) => job.needs?.(env) ?? 0));
  let spent = 0;
  for (const [i, job] of table.entries()) {
    const kept = table.slice(i + 1).reduce((sum, later) => sum + (later.reserve ?? 0), 0);
    const report = await job.run({ env: tickEnv, db, at, room: budget - spent - kept, d1Calls: counted.calls }).catch((error: unknown) => {
      console.error(`${job.name} failed`, safeErrorSummary(error));
      return null;
    });
    if (!report) continue;
    spent += report.subrequests;
    const { didWork, ...figures } = report;
    if (didWork) console.log(job.name, JSON.stringify(figures));
  }
}
