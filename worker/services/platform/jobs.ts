import type { BatchItem } from 'drizzle-orm/batch';
import type { Db } from '../../db/client';
import type { Bindings } from '../../env';

// What a domain hands the Cron Trigger (worker/cron.ts): its cron jobs and its prune statements,
// exported from the domain's door (worker/services/<domain>/index.ts, docs/architecture.md). The
// floor defines only these shapes; the cron's table lists the rows.

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
