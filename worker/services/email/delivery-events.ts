import { redactSecrets } from '../../mail-redaction';
import { sha256Hex } from '#core/encoding';

/**
 * Applies MailChannels' delivery events (docs/product.md §7) to the e-mail log and the newsletter
 * list, idempotently: each event is first claimed in `delivery_events` (insert-or-ignore on a key
 * derived from its content) and only the events this request claimed are applied, so a retried
 * webhook delivery changes nothing twice. Every statement stays under D1's 100 bound parameters.
 * Only the firm's own events count: an event whose `customer_handle` is not the firm's MailChannels
 * account id (MAILCHANNELS_ACCOUNT_ID, required by the route) is ignored and counted (a
 * validly signed batch of another account's events could otherwise suppress a subscriber).
 */

/** One event as MailChannels posts it; only the fields used here are typed. */
export interface MailChannelsEvent {
  event?: unknown;
  /** The SENDER's address, not the recipient's. */
  email?: unknown;
  customer_handle?: unknown;
  timestamp?: unknown;
  request_id?: unknown;
  smtp_id?: unknown;
  recipients?: unknown;
  status?: unknown;
  reason?: unknown;
}

/** Events that change something here; every other type (processed, open, click, test...) is accepted and ignored. */
const APPLIED = new Set(['delivered', 'soft-bounced', 'hard-bounced', 'dropped', 'complained']);
/** Soft bounces in a row (one per message) that suppress an address. */
export const SOFT_BOUNCE_LIMIT = 3;
const D1_MAX_PARAMS = 100;

/** One event for one recipient: the unit that is claimed and applied. */
interface Unit {
  key: string;
  event: string;
  recipient: string;
  requestId: string | null;
  occurredAt: number;
  detail: string | null;
  permanentDrop: boolean;
}

export interface ApplyResult {
  /** Events in the request. */
  received: number;
  /** Event-recipient pairs applied now. */
  applied: number;
  /** Event-recipient pairs already applied by an earlier delivery of the same events. */
  duplicates: number;
  /** Events that change nothing here: of a type not applied, without recipients, or of another account. */
  ignored: number;
  /** Of the ignored events, those whose customer_handle is not the firm's account id. */
  otherAccount: number;
}

const str = (value: unknown): string | null => (typeof value === 'string' && value.trim() ? value.trim() : null);

function detailOf(e: MailChannelsEvent): string | null {
  const text = [str(e.status) ?? (typeof e.status === 'number' ? String(e.status) : null), str(e.reason)].filter(Boolean).join(' ');
  // A provider's reason may quote the message: a link's secret stays out of the log.
  return text ? redactSecrets(text).slice(0, 500) : null;
}

/**
 * A drop is permanent when MailChannels gives a 5xx SMTP status (or a 5.x.x enhanced one), or
 * when it dropped the message because the address is on its own suppression list; other drops
 * (a temporary policy block, a malformed message) only mark the log entry.
 */
function isPermanentDrop(e: MailChannelsEvent): boolean {
  const status = str(e.status) ?? (typeof e.status === 'number' ? String(e.status) : '');
  return /^5/.test(status) || /suppress/i.test(str(e.reason) ?? '');
}

/**
 * The unit's identity. A soft bounce is keyed by its message alone: MailChannels retries a
 * soft-bounced message for hours and may report several soft bounces for it, which count as one
 * towards the limit. Other events are keyed by their whole content.
 */
function unitKey(e: MailChannelsEvent, event: string, recipient: string): Promise<string> {
  const message = [str(e.request_id) ?? '', str(e.smtp_id) ?? ''];
  const parts =
    event === 'soft-bounced' && (message[0] || message[1])
      ? [event, ...message, recipient]
      : [event, ...message, recipient, typeof e.timestamp === 'number' ? e.timestamp : null, detailOf(e) ?? ''];
  return sha256Hex(JSON.stringify(parts));
}

async function toUnits(events: MailChannelsEvent[], accountId: string, now: number) {
  const units = new Map<string, Unit>();
  let ignored = 0;
  let otherAccount = 0;
  for (const e of events) {
    if (str(e.customer_handle) !== accountId) {
      otherAccount++;
      ignored++;
      continue;
    }
    const event = str(e.event);
    const recipients = Array.isArray(e.recipients) ? e.recipients.map(str).filter((r): r is string => r !== null) : [];
    if (!event || !APPLIED.has(event) || recipients.length === 0) {
      ignored++;
      continue;
    }
    const seconds = typeof e.timestamp === 'number' && Number.isFinite(e.timestamp) ? e.timestamp : null;
    for (const raw of recipients) {
      const recipient = raw.toLowerCase();
      const key = await unitKey(e, event, recipient);
      if (units.has(key)) continue;
      units.set(key, {
        key,
        event,
        recipient,
        requestId: str(e.request_id),
        occurredAt: seconds !== null ? seconds * 1000 : now,
        detail: detailOf(e),
        permanentDrop: event === 'dropped' && isPermanentDrop(e),
      });
    }
  }
  return { units: [...units.values()].sort((a, b) => a.occurredAt - b.occurredAt), ignored, otherAccount };
}

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** `WITH v(cols) AS (VALUES (?,..),..) <statement>` for as many rows as fit in D1's parameter limit. */
function valuesStatements<T>(db: D1Database, columns: string[], rows: T[], toParams: (row: T) => unknown[], statement: string) {
  const perRow = columns.length;
  return chunks(rows, Math.floor(D1_MAX_PARAMS / perRow)).map((chunk) => {
    const values = chunk.map(() => `(${Array(perRow).fill('?').join(', ')})`).join(', ');
    return db.prepare(`WITH v(${columns.join(', ')}) AS (VALUES ${values}) ${statement}`).bind(...chunk.flatMap(toParams));
  });
}

/** Claims the units in delivery_events; returns the keys this call inserted (the others were seen before). */
async function claim(db: D1Database, units: Unit[]): Promise<Set<string>> {
  if (units.length === 0) return new Set();
  const statements = chunks(units, Math.floor(D1_MAX_PARAMS / 5)).map((chunk) =>
    db
      .prepare(
        `INSERT INTO delivery_events (event_key, event, recipient, request_id, occurred_at) VALUES ${chunk.map(() => '(?, ?, ?, ?, ?)').join(', ')}
         ON CONFLICT (event_key) DO NOTHING RETURNING event_key`,
      )
      .bind(...chunk.flatMap((u) => [u.key, u.event, u.recipient, u.requestId, u.occurredAt])),
  );
  const results = await db.batch<{ event_key: string }>(statements);
  return new Set(results.flatMap((r) => r.results.map((row) => row.event_key)));
}

/** Gives claimed keys back when applying failed, so MailChannels' retry applies them. */
async function release(db: D1Database, keys: string[]) {
  const statements = chunks(keys, D1_MAX_PARAMS).map((chunk) =>
    db.prepare(`DELETE FROM delivery_events WHERE event_key IN (${chunk.map(() => '?').join(', ')})`).bind(...chunk),
  );
  if (statements.length) await db.batch(statements);
}

interface AddressChange {
  email: string;
  /** A delivery since the last counted soft bounce: the counter restarts. */
  reset: boolean;
  /** Soft-bounced messages after the last delivery. */
  softBounces: number;
  lastSoftBounce: Unit | null;
  suppression: { at: number; reason: 'bounced' | 'complained'; detail: string } | null;
}

function addressChanges(units: Unit[]): AddressChange[] {
  const byEmail = new Map<string, AddressChange>();
  for (const u of units) {
    const change = byEmail.get(u.recipient) ?? { email: u.recipient, reset: false, softBounces: 0, lastSoftBounce: null, suppression: null };
    byEmail.set(u.recipient, change);
    if (u.event === 'delivered') {
      change.reset = true;
      change.softBounces = 0;
    } else if (u.event === 'soft-bounced') {
      change.softBounces++;
      change.lastSoftBounce = u;
    } else if (!change.suppression && (u.event === 'hard-bounced' || u.permanentDrop)) {
      change.suppression = { at: u.occurredAt, reason: 'bounced', detail: `${u.event}${u.detail ? `: ${u.detail}` : ''}` };
    } else if (!change.suppression && u.event === 'complained') {
      change.suppression = { at: u.occurredAt, reason: 'complained', detail: `complained${u.detail ? `: ${u.detail}` : ''}` };
    }
  }
  return [...byEmail.values()];
}

/** The statements that apply claimed units: the log entries' delivery status, then the list's suppressions. */
function applyStatements(db: D1Database, units: Unit[]): D1PreparedStatement[] {
  // The log keeps the latest event per message and recipient; an older event arriving late changes nothing.
  const latest = new Map<string, Unit>();
  for (const u of units) if (u.requestId) latest.set(`${u.requestId}\n${u.recipient}`, u);
  const logUpdates = valuesStatements(
    db,
    ['provider_id', 'recipient', 'status', 'detail', 'at'],
    [...latest.values()],
    (u) => [u.requestId, u.recipient, u.event, u.detail, u.occurredAt],
    `UPDATE email_log SET delivery_status = v.status, delivery_detail = v.detail, delivery_updated_at = v.at
     FROM v WHERE email_log.provider_id = v.provider_id AND lower(email_log."to") = v.recipient
       AND (email_log.delivery_updated_at IS NULL OR email_log.delivery_updated_at <= v.at)`,
  );

  const changes = addressChanges(units);
  const suppressions = changes.filter((c) => c.suppression);
  const counted = changes.filter((c) => c.reset || c.softBounces > 0);
  const softSuppressions = changes.filter((c) => c.lastSoftBounce);
  const suppress = valuesStatements(
    db,
    ['email', 'at', 'reason', 'detail'],
    suppressions,
    (c) => [c.email, c.suppression!.at, c.suppression!.reason, c.suppression!.detail],
    `UPDATE newsletter_subscriptions SET active = 'false', suppressed_at = v.at, suppression_reason = v.reason, suppression_detail = v.detail
     FROM v WHERE newsletter_subscriptions.email = v.email AND newsletter_subscriptions.suppressed_at IS NULL`,
  );
  const count = valuesStatements(
    db,
    ['email', 'reset', 'n'],
    counted,
    (c) => [c.email, c.reset ? 1 : 0, c.softBounces],
    `UPDATE newsletter_subscriptions SET soft_bounces = CASE WHEN v.reset = 1 THEN v.n ELSE newsletter_subscriptions.soft_bounces + v.n END
     FROM v WHERE newsletter_subscriptions.email = v.email`,
  );
  const softSuppress = valuesStatements(
    db,
    ['email', 'at', 'detail'],
    softSuppressions,
    (c) => [c.email, c.lastSoftBounce!.occurredAt, `${SOFT_BOUNCE_LIMIT} soft bounces in a row${c.lastSoftBounce!.detail ? `; last: ${c.lastSoftBounce!.detail}` : ''}`],
    `UPDATE newsletter_subscriptions SET active = 'false', suppressed_at = v.at, suppression_reason = 'bounced', suppression_detail = v.detail
     FROM v WHERE newsletter_subscriptions.email = v.email AND newsletter_subscriptions.suppressed_at IS NULL
       AND newsletter_subscriptions.soft_bounces >= ${SOFT_BOUNCE_LIMIT}`,
  );
  return [...logUpdates, ...suppress, ...count, ...softSuppress];
}

/**
 * Claims then applies a verified array of events; only those of `accountId` (the firm's
 * MailChannels account) count. Applying is one D1 batch (one transaction); when
 * it fails the claims are released and the error rethrown, so the route answers 500 and
 * MailChannels' retry finds the events unapplied.
 */
export async function applyDeliveryEvents(
  db: D1Database,
  events: MailChannelsEvent[],
  options: { accountId: string; now?: number },
): Promise<ApplyResult> {
  if (!options.accountId) throw new Error('applyDeliveryEvents: the firm\'s MailChannels account id is required');
  const { units, ignored, otherAccount } = await toUnits(events, options.accountId, options.now ?? Date.now());
  const claimed = await claim(db, units);
  const fresh = units.filter((u) => claimed.has(u.key));
  const statements = applyStatements(db, fresh);
  if (statements.length) {
    try {
      await db.batch(statements);
    } catch (error) {
      await release(db, [...claimed]).catch(() => undefined);
      throw error;
    }
  }
  return { received: events.length, applied: fresh.length, duplicates: units.length - fresh.length, ignored, otherAccount };
}
