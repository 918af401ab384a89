/** Bindings and variables the worker receives (wrangler.toml, .dev.vars, `wrangler secret`). */
export interface Bindings {
  DB: D1Database;
  THROTTLE: KVNamespace;
  AI?: Ai;
  /** Workers AI chat timeout in ms (default 15000); tests shorten it. */
  CHAT_AI_TIMEOUT_MS?: string;
  ASSETS: Fetcher;
  DAILY_SUBMISSION_CAP: string;
  SUBMISSIONS_PER_IP_PER_WINDOW: string;
  /** Signs admin session tokens and the newsletter links; also keys the IP hashes. */
  JWT_SECRET: string;
  ADMIN_USERNAME?: string;
  ADMIN_PASSWORD?: string;
  /**
   * The site's public origin, e.g. https://www.northgatecpa.example (wrangler.toml [vars]; .dev.vars
   * may point it at the local server): links in e-mails and the invites' UID host.
   */
  SITE_URL: string;
  MAILCHANNELS_API_KEY?: string;
  MAILCHANNELS_API_URL?: string;
  /** Per-request timeout for MailChannels calls in ms (default 10000). */
  MAILCHANNELS_TIMEOUT_MS?: string;
  /** Newsletter e-mails per invocation; keep it under the plan's subrequest limit (50 free / 1000 paid). Default 40. */
  NEWSLETTER_BATCH_SIZE?: string;
  /** Seconds after which a claimed-but-unsettled delivery counts as interrupted (default 120). */
  NEWSLETTER_CLAIM_LEASE_SECONDS?: string;
  DKIM_DOMAIN?: string;
  DKIM_SELECTOR?: string;
  DKIM_PRIVATE_KEY?: string;
  /** The sender address (wrangler.toml [vars]); the display name is firm.name. */
  MAIL_FROM: string;
  GTM_ID?: string;
}

export interface Variables {
  adminUser: { id: number; username: string };
}

export type AppEnv = { Bindings: Bindings; Variables: Variables };
