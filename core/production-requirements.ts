// What production needs from the operator that the repository cannot hold: the Worker's secrets
// (set with `wrangler secret put`, `wrangler secret bulk` or `wrangler deploy --secrets-file`, never
// committed) and the rule for SITE_URL. One list, read by the deploy preflight (scripts/preflight.ts)
// and by whatever else reports what production still lacks. Which secret does what: README,
// "Secrets", and .dev.vars.example.

export interface SecretRequirement {
  name: string;
  /**
   * 'required': the site does not work without it (the preflight stops a deploy);
   * 'first-sign-in': needed only until the first administrator exists, then deleted (README, "The
   * first administrator"), so the preflight only mentions it;
   * 'recommended': production works without it, worse (the preflight mentions it).
   */
  level: 'required' | 'first-sign-in' | 'recommended';
  /** What goes wrong without it, in one clause. */
  without: string;
  /** The command that sets it. */
  fix: string;
}

export const productionSecrets: readonly SecretRequirement[] = [
  {
    name: 'JWT_SECRET',
    level: 'required',
    without: 'the Worker refuses every API request (503) and skips every cron tick',
    fix: 'openssl rand -hex 32 | npx wrangler secret put JWT_SECRET',
  },
  {
    name: 'ADMIN_USERNAME',
    level: 'first-sign-in',
    without: 'no first administrator can be created, so nobody can sign in to a fresh install',
    fix: 'npx wrangler secret put ADMIN_USERNAME',
  },
  {
    name: 'ADMIN_PASSWORD',
    level: 'first-sign-in',
    without: 'no first administrator can be created, so nobody can sign in to a fresh install',
    fix: 'npx wrangler secret put ADMIN_PASSWORD',
  },
  {
    name: 'MAILCHANNELS_API_KEY',
    level: 'recommended',
    without: 'e-mail is only stored in the outbox, never sent',
    fix: 'npx wrangler secret put MAILCHANNELS_API_KEY',
  },
  {
    name: 'TURNSTILE_SECRET',
    level: 'recommended',
    without: 'the public forms have no bot check',
    fix: 'npx wrangler secret put TURNSTILE_SECRET (with the TURNSTILE_SITE_KEY var)',
  },
  {
    name: 'DKIM_DOMAIN',
    level: 'recommended',
    without: 'mail is not DKIM-signed for the firm’s domain',
    fix: 'README, "E-mail through MailChannels" (with DKIM_SELECTOR and DKIM_PRIVATE_KEY)',
  },
  {
    name: 'DKIM_SELECTOR',
    level: 'recommended',
    without: 'mail is not DKIM-signed for the firm’s domain',
    fix: 'README, "E-mail through MailChannels" (with DKIM_DOMAIN and DKIM_PRIVATE_KEY)',
  },
  {
    name: 'DKIM_PRIVATE_KEY',
    level: 'recommended',
    without: 'mail is not DKIM-signed for the firm’s domain',
    fix: 'README, "E-mail through MailChannels" (with DKIM_DOMAIN and DKIM_SELECTOR)',
  },
  {
    // Recommended until the client portal can be turned on; required from then (docs/decisions/0022-client-portal-files.md).
    name: 'PORTAL_FILE_KEYS',
    level: 'recommended',
    without: 'the client portal can store and open no file',
    fix: 'echo "k1:$(openssl rand -base64 32)" | npx wrangler secret put PORTAL_FILE_KEYS',
  },
];

/** The secrets a deploy must not go out without. */
export const requiredSecretNames: readonly string[] = productionSecrets.filter((s) => s.level === 'required').map((s) => s.name);

/**
 * Why SITE_URL cannot be production's address, or null when it can: unset, not an https origin
 * (no path), or a placeholder host (the reserved .example, .test, .invalid and .localhost names,
 * example.com/.net/.org, localhost or a loopback address).
 */
export function siteUrlProblem(value: unknown): string | null {
  if (typeof value !== 'string' || value.trim() === '') return 'SITE_URL is not set';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `SITE_URL ${JSON.stringify(value)} is not a URL`;
  }
  if (url.protocol !== 'https:') return `SITE_URL ${JSON.stringify(value)} is not an https:// address`;
  if (url.pathname !== '/' || url.search || url.hash || url.username || url.password) return `SITE_URL ${JSON.stringify(value)} must be an origin only, like "https://www.example.com"`;
  if (isPlaceholderHost(url.hostname)) return `SITE_URL ${JSON.stringify(value)} is a placeholder`;
  return null;
}

/**
 * A host no firm's site lives on: the names reserved for examples and tests (RFC 2606: .example,
 * .test, .invalid, .localhost, example.com/.net/.org), localhost and the loopback addresses. The
 * preflight and the go-live checklist (core/go-live.ts) judge SITE_URL and MAIL_FROM by it.
 */
export function isPlaceholderHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return /(^|\.)(example|test|invalid|localhost)$/.test(host) || /(^|\.)example\.(com|net|org)$/.test(host) || host === '127.0.0.1' || host === '[::1]';
}
