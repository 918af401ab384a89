// The bindings come from wrangler.jsonc and .dev.vars.example: `npm run types` (wrangler types)
// generates the global `Env` from them into worker/worker-configuration.d.ts, which is generated
// output, not source: `npm install` (postinstall) and `npm run typecheck` write it afresh, so it
// always matches the configuration, and git ignores it. Only what the generated type cannot know
// is written here.

import type { Db } from './db/client';

/**
 * What a deployment may leave unset, so the code checks it before use: Workers AI (absent offline;
 * the chat and the newsletter preview fall back), the first administrator's credentials, the
 * MailChannels key (without it e-mail goes to the D1 outbox) and account id (without it the
 * delivery-events webhook answers 503), the DKIM trio, the GTM container and Turnstile (off when TURNSTILE_SECRET is unset),
 * and the client portal's file keys (without them the portal stores and opens no file).
 */
type MayBeUnset =
  | 'AI'
  | 'ADMIN_USERNAME'
  | 'ADMIN_PASSWORD'
  | 'MAILCHANNELS_API_KEY'
  | 'MAILCHANNELS_ACCOUNT_ID'
  | 'DKIM_DOMAIN'
  | 'DKIM_SELECTOR'
  | 'DKIM_PRIVATE_KEY'
  | 'GTM_ID'
  | 'TURNSTILE_SECRET'
  | 'TURNSTILE_SITE_KEY'
  | 'PORTAL_FILE_KEYS';

/** Settings with defaults in the code, named in neither wrangler.jsonc nor .dev.vars.example: tests and benchmarks set them. */
export interface TuningSettings {
  /** Workers AI chat timeout in ms (default 15000); tests shorten it. */
  CHAT_AI_TIMEOUT_MS?: string;
  /** The MailChannels API base URL (default the public API); tests and the newsletter benchmark point it at a fake. */
  MAILCHANNELS_API_URL?: string;
  /**
   * Local development's mailbox (scripts/lib/local-mailbox.ts): with no MailChannels key, every
   * message is handed to this loopback address, which writes it as an .eml file. Set only by the
   * local scripts (`npm start`, `npm run dev`, the browser tests' stacks); any address but a
   * loopback one is ignored (worker/services/email/local-mailbox.ts).
   */
  LOCAL_MAILBOX_URL?: string;
  /** Per-request timeout for MailChannels calls in ms (default 10000). */
  MAILCHANNELS_TIMEOUT_MS?: string;
  /** Newsletter e-mails per invocation; keep it under the plan's subrequest limit (50 free / 1000 paid). Default 40. */
  NEWSLETTER_BATCH_SIZE?: string;
  /** Seconds after which a claimed-but-unsettled delivery counts as interrupted (default 120). */
  NEWSLETTER_CLAIM_LEASE_SECONDS?: string;
  /** Chat messages per network per 10 minutes (default 20); the browser tests and the chat benchmark raise it. */
  CHAT_MESSAGES_PER_WINDOW?: string;
  /**
   * The former shared daily cap of contact + booking: when set, the default of DAILY_CONTACT_CAP and
   * DAILY_BOOKING_CAP (which wrangler.jsonc sets, so it only applies where those are removed).
   */
  DAILY_SUBMISSION_CAP?: string;
  /** Timeout of a Turnstile siteverify call in ms (default 5000); tests shorten it. */
  TURNSTILE_SITEVERIFY_TIMEOUT_MS?: string;
  /**
   * 'true' marks local development for the busy calendars: this machine (localhost, 127.0.0.0/8, [::1]),
   * over http too, may serve one (worker/services/appointments/busy-calendars.ts). Never in wrangler.jsonc
   * or production, where only public internet hosts are fetched.
   */
  ALLOW_HTTP_CALENDARS?: string;
  /** The DNS-over-HTTPS endpoint of the go-live checklist (default Cloudflare's); tests point it at a fake. */
  DNS_OVER_HTTPS_URL?: string;
  /** Timeout of one go-live DNS lookup in ms (default 3000); tests shorten it. */
  DNS_OVER_HTTPS_TIMEOUT_MS?: string;
  /** Timeout of a busy calendar's fetch in ms (default 10000); tests shorten it. */
  CALENDAR_FETCH_TIMEOUT_MS?: string;
  /**
   * '1' answers a request that asks (X-Count-D1-Calls: 1) with the number of D1 calls made before
   * its answer (X-D1-Calls, worker/services/platform/d1-call-count.ts): set only by `npm run bench:load`.
   */
  COUNT_D1_CALLS?: string;
}

/** Bindings and variables the worker receives (wrangler.jsonc, .dev.vars, `wrangler secret`). */
export interface Bindings extends Omit<Env, MayBeUnset>, Partial<Pick<Env, MayBeUnset>>, TuningSettings {}

/** The signed-in account requireAdmin sets (worker/middleware/require-admin.ts); the role decides what it may do (docs/product.md §6.8). */
export interface AdminUserVariable {
  id: number;
  username: string;
  name: string;
  role: 'owner' | 'staff';
  /** A staff member the owner allows to send and schedule newsletters (owners always may). */
  canSendNewsletters: boolean;
}

export interface Variables {
  /** The request's Drizzle handle (worker/middleware/database.ts): routes take the database from here. */
  db: Db;
  adminUser: AdminUserVariable;
  /** The session requireAdmin accepted: its id (the token's jti) and expiry, kept when its cookie is renewed. */
  adminSession: { jti: string; expiresAt: Date };
  /** True while the owner requires two-factor sign-in and this account has not set it up yet. */
  mustEnrolTwoFactor: boolean;
}

export type AppEnv = { Bindings: Bindings; Variables: Variables };
