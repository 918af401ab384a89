// The go-live checklist (docs/product.md §6.10): every requirement of a production deployment, in
// one place for its three readers. The worker's GET /api/admin/go-live (worker/services/go-live)
// reads the facts live (which secrets are set, never their values; the vars; the e-mail DNS records;
// delivery events; the two-factor policy) with goLiveSettingFacts and dnsNames; evaluateGoLive turns
// facts into each requirement's state, on the owner's screen /admin/go-live and in `npm run doctor`
// (scripts/doctor.ts), which also evaluates the facts of the local files. The judging and its words
// stay out of the worker's bundle, which has a budget (scripts/check-budgets.ts); so do the titles
// and what-to-do lines (core/go-live-requirements.ts).

import { isPlaceholderHost } from '#core/production-requirements';
import { turnstileSiteKeyOf } from '#core/site-keys';

/** done: in place; missing: to do; unknown: could not be checked here (the detail says why). */
export type GoLiveState = 'done' | 'missing' | 'unknown';

export const GO_LIVE_IDS = [
  'jwt-secret',
  'site-url',
  'https',
  'mail-from',
  'mailchannels-api-key',
  'mailchannels-account-id',
  'dkim-settings',
  'dns-spf',
  'dns-dkim',
  'dns-lockdown',
  'dns-dmarc',
  'delivery-events',
  'turnstile',
  'two-factor',
] as const;
export type GoLiveId = (typeof GO_LIVE_IDS)[number];

/** One requirement's state, with one line saying what was found (never a secret's value). */
export interface GoLiveCheck {
  id: GoLiveId;
  state: GoLiveState;
  detail: string;
}

/**
 * The Worker secrets a production deployment needs (`npx wrangler secret put NAME`), for whoever
 * checks them before a deploy. JWT_SECRET is the one the worker cannot run without; the others turn
 * on sending (MailChannels, DKIM), the forms' bot check (Turnstile) and the client portal's file
 * encryption (PORTAL_FILE_KEYS, docs/decisions/0022-client-portal-files.md).
 */
export const PRODUCTION_SECRETS = ['JWT_SECRET', 'MAILCHANNELS_API_KEY', 'DKIM_DOMAIN', 'DKIM_SELECTOR', 'DKIM_PRIVATE_KEY', 'TURNSTILE_SECRET', 'PORTAL_FILE_KEYS'] as const;
/** The plain vars (wrangler config `vars`) a production deployment needs set to its own values. */
export const PRODUCTION_VARS = ['SITE_URL', 'MAIL_FROM', 'MAILCHANNELS_ACCOUNT_ID', 'TURNSTILE_SITE_KEY'] as const;

/** Values that are public (in DNS, in the pages, in e-mail headers): the facts may carry them. */
const PUBLIC_VALUES = ['SITE_URL', 'MAIL_FROM', 'MAILCHANNELS_ACCOUNT_ID', 'TURNSTILE_SITE_KEY', 'DKIM_DOMAIN', 'DKIM_SELECTOR'] as const;
/** Secrets: the facts say only whether each is set. */
const SECRET_NAMES = ['MAILCHANNELS_API_KEY', 'DKIM_PRIVATE_KEY', 'TURNSTILE_SECRET'] as const;

/** The settings read: the worker's env, or the doctor's wrangler config vars with .dev.vars over them. */
export type GoLiveSettings = Partial<Record<'JWT_SECRET' | (typeof PUBLIC_VALUES)[number] | (typeof SECRET_NAMES)[number], string>>;

/** The placeholder `npm start` replaces (.dev.vars.example). */
const PLACEHOLDER_SECRET = 'generated-by-npm-start';

/** What the settings say, with no secret's value: the public values, and whether each secret is set. */
export interface GoLiveSettingFacts {
  /** usable: 32 characters or more and not the placeholder; short: fewer (the worker then refuses sign-in). */
  jwtSecret: 'usable' | 'short' | 'placeholder' | 'unset';
  secretsSet: Partial<Record<(typeof SECRET_NAMES)[number], boolean>>;
  values: Partial<Record<(typeof PUBLIC_VALUES)[number], string>>;
}

export function goLiveSettingFacts(settings: GoLiveSettings): GoLiveSettingFacts {
  const jwt = settings.JWT_SECRET?.trim() ?? '';
  const trimmed = (name: keyof GoLiveSettings) => settings[name]?.trim() ?? '';
  return {
    jwtSecret: !jwt ? 'unset' : jwt === PLACEHOLDER_SECRET ? 'placeholder' : jwt.length < 32 ? 'short' : 'usable',
    secretsSet: Object.fromEntries(SECRET_NAMES.map((name) => [name, trimmed(name) !== ''])),
    values: Object.fromEntries(PUBLIC_VALUES.map((name) => [name, trimmed(name)])),
  };
}

/** The sending domain: the part of MAIL_FROM after the @, lower case; null without one. */
export function sendingDomain(mailFrom: string | undefined): string | null {
  const domain = mailFrom?.slice(mailFrom.lastIndexOf('@') + 1).trim().toLowerCase() ?? '';
  return mailFrom?.includes('@') && /^[a-z0-9.-]+\.[a-z]{2,}$/.test(domain) ? domain : null;
}

export type DnsRecordKey = 'spf' | 'dkim' | 'lockdown' | 'dmarc';

/** The DNS names the e-mail records live at (README "12. DNS"), null where a setting they depend on is missing. */
export function dnsNames(values: GoLiveSettingFacts['values']): Record<DnsRecordKey, string | null> {
  const domain = sendingDomain(values.MAIL_FROM);
  const dkimDomain = values.DKIM_DOMAIN?.toLowerCase();
  const selector = values.DKIM_SELECTOR?.toLowerCase();
  return {
    spf: domain,
    dkim: dkimDomain && selector ? `${selector}._domainkey.${dkimDomain}` : null,
    lockdown: domain && `_mailchannels.${domain}`,
    dmarc: domain && `_dmarc.${domain}`,
  };
}

/**
 * A TXT record's text from its DNS-over-HTTPS `data` (application/dns-json): its quoted strings
 * joined, as a long DKIM key is split into several; unquoted data as it is.
 */
export function txtRecordText(data: string): string {
  return [...data.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1].replace(/\\(.)/g, '$1')).join('') || data;
}

/**
 * Everything the checklist is judged on. The settings always; the rest only from a running site
 * (`origin` set): the address the page is open on, each DNS name's TXT records or why they could not
 * be read (none looked up off the live site), delivery events, and the two-factor policy.
 */
export interface GoLiveFacts extends GoLiveSettingFacts {
  checkedAt?: string;
  origin?: string;
  /**
   * By DNS name: its TXT records' data as DNS-over-HTTPS answered it, or why they could not be read
   * (`timeout`, `failed`, or the HTTP or DNS status). Absent: not looked up (a local run).
   */
  dns?: Record<string, string[] | { error: string }>;
  /** Whether SITE_URL's delivery-event address is enrolled; null without an API key; absent: not asked (a local run). */
  deliveryEvents?: { enrolled: boolean; endpoint: string } | { error: string } | null;
  twoFactor?: { required: boolean; owners: number; ownersWithTwoFactor: number };
}

const check = (id: GoLiveId, done: boolean, detail: string): GoLiveCheck => ({ id, state: done ? 'done' : 'missing', detail });
const unknown = (id: GoLiveId, detail: string): GoLiveCheck => ({ id, state: 'unknown', detail });
/** A host reserved for examples (RFC 2606), as the repository's own settings use: never a firm's (the deploy preflight's rule too). */
const isExampleHost = isPlaceholderHost;
const NEEDS_SITE = 'Needs the running site: `npm run doctor <its address>` with an owner’s DOCTOR_USERNAME and DOCTOR_PASSWORD';

function siteUrlCheck(siteUrl: string | undefined, origin: string | undefined): GoLiveCheck {
  let site: URL;
  try {
    if (!siteUrl) return check('site-url', false, 'SITE_URL is not set');
    site = new URL(siteUrl);
  } catch {
    return check('site-url', false, 'SITE_URL is not an address');
  }
  const found = `SITE_URL is ${site.origin}`;
  if (site.protocol !== 'https:') return check('site-url', false, `${found}, not an https:// address`);
  if (isExampleHost(site.hostname)) return check('site-url', false, `${found}, a placeholder address`);
  if (origin && site.origin !== origin) return check('site-url', false, `${found}, but this page is open on ${origin}`);
  return check('site-url', true, found);
}

/** Whether a name's TXT records hold what the requirement needs, and what was found. */
export function dnsRecordCheck(id: 'dns-spf' | 'dns-dkim' | 'dns-lockdown' | 'dns-dmarc', name: string, records: string[], accountId?: string): GoLiveCheck {
  const none = check(id, false, `No such TXT record at ${name}`);
  const found = check(id, true, `Found at ${name}`);
  if (id === 'dns-spf') {
    const spf = records.filter((r) => /^v=spf1(\s|$)/i.test(r));
    if (spf.length === 0) return none;
    if (spf.length > 1) return check(id, false, `${name} has ${spf.length} SPF records: a name may hold only one`);
    return /\sinclude:relay\.mailchannels\.net(\s|$)/i.test(` ${spf[0]}`) ? found : check(id, false, `The SPF record at ${name} does not include relay.mailchannels.net`);
  }
  if (id === 'dns-dkim') return records.some((r) => /(^|;)\s*p=[A-Za-z0-9+/]{40,}/.test(r)) ? found : none;
  if (id === 'dns-dmarc') return records.some((r) => /^v=DMARC1\s*(;|$)/i.test(r)) ? found : none;
  const lockdown = records.filter((r) => /^v=mc1(\s|$)/i.test(r));
  if (lockdown.length === 0) return none;
  const auths = lockdown.flatMap((r) => [...r.matchAll(/\bauth=([^\s;]+)/gi)].map((m) => m[1]));
  if (auths.length === 0) return check(id, false, `The record at ${name} has no auth= (the older cfid= form is no longer accepted)`);
  if (!accountId) return unknown(id, `Found at ${name}; set MAILCHANNELS_ACCOUNT_ID to check its account`);
  return auths.includes(accountId) ? found : check(id, false, `The record at ${name} names another MailChannels account`);
}

const DNS_ERRORS: Record<string, string> = { timeout: 'took too long', failed: 'failed' };
const DNS_IDS = { spf: 'dns-spf', dkim: 'dns-dkim', lockdown: 'dns-lockdown', dmarc: 'dns-dmarc' } as const;

/** Every requirement's state from the facts, in the checklist's order. */
export function evaluateGoLive(facts: GoLiveFacts): GoLiveCheck[] {
  const { values, secretsSet, origin } = facts;
  const domain = sendingDomain(values.MAIL_FROM);
  const missingOf = (names: string[], isSet: (name: string) => boolean) => names.filter((name) => !isSet(name));
  const dkim = missingOf(['DKIM_DOMAIN', 'DKIM_SELECTOR', 'DKIM_PRIVATE_KEY'], (n) => (n === 'DKIM_PRIVATE_KEY' ? !!secretsSet.DKIM_PRIVATE_KEY : !!values[n as 'DKIM_DOMAIN']));
  const turnstile = missingOf(['TURNSTILE_SECRET', 'TURNSTILE_SITE_KEY'], (n) => (n === 'TURNSTILE_SECRET' ? !!secretsSet.TURNSTILE_SECRET : turnstileSiteKeyOf(values.TURNSTILE_SITE_KEY) !== null));
  const jwtWords = { usable: 'Set', short: 'Set, but shorter than 32 characters', placeholder: 'Still the placeholder of .dev.vars.example', unset: 'Not set' };
  const names = dnsNames(values);

  const checks: GoLiveCheck[] = [
    check('jwt-secret', facts.jwtSecret === 'usable', jwtWords[facts.jwtSecret]),
    siteUrlCheck(values.SITE_URL, origin),
    origin ? check('https', origin.startsWith('https:'), `This page is open on ${origin}`) : unknown('https', NEEDS_SITE),
    check('mail-from', domain !== null && !isExampleHost(domain), domain ? `Sends from the domain ${domain}${isExampleHost(domain) ? ', a placeholder domain' : ''}` : 'MAIL_FROM is not an e-mail address'),
    check('mailchannels-api-key', !!secretsSet.MAILCHANNELS_API_KEY, secretsSet.MAILCHANNELS_API_KEY ? 'Set' : 'Not set: e-mail is kept in the e-mail log, not sent'),
    check('mailchannels-account-id', !!values.MAILCHANNELS_ACCOUNT_ID, values.MAILCHANNELS_ACCOUNT_ID ? 'Set' : 'Not set: delivery events are refused'),
    check('dkim-settings', dkim.length === 0, dkim.length === 0 ? 'Set' : `Not set: ${dkim.join(', ')}`),
  ];
  for (const key of ['spf', 'dkim', 'lockdown', 'dmarc'] as const) {
    const id = DNS_IDS[key];
    const name = names[key];
    const answer = name ? facts.dns?.[name] : undefined;
    if (!name) checks.push(check(id, false, key === 'dkim' ? 'DKIM_DOMAIN and DKIM_SELECTOR are not set' : 'MAIL_FROM has no domain'));
    else if (!origin) checks.push(unknown(id, NEEDS_SITE));
    else if (!answer) checks.push(unknown(id, `Looked up only on the live site: ${name}`));
    else if ('error' in answer) checks.push(unknown(id, `The DNS lookup of ${name} ${DNS_ERRORS[answer.error] ?? `failed (${answer.error})`}`));
    else checks.push(dnsRecordCheck(id, name, answer.map(txtRecordText), values.MAILCHANNELS_ACCOUNT_ID));
  }
  const events = facts.deliveryEvents;
  checks.push(
    !secretsSet.MAILCHANNELS_API_KEY || events === null
      ? check('delivery-events', false, 'Needs the MailChannels API key')
      : !values.MAILCHANNELS_ACCOUNT_ID
        ? check('delivery-events', false, 'Needs MAILCHANNELS_ACCOUNT_ID')
        : !origin
          ? unknown('delivery-events', NEEDS_SITE)
          : !events
            ? unknown('delivery-events', 'Checked only on the live site')
            : 'error' in events
              ? unknown('delivery-events', events.error)
              : check('delivery-events', events.enrolled, `${events.enrolled ? 'Enrolled' : 'Not enrolled'}: ${events.endpoint}`),
    check('turnstile', turnstile.length === 0, turnstile.length === 0 ? 'Both keys set' : `Not set: ${turnstile.join(', ')}`),
  );
  const tf = facts.twoFactor;
  checks.push(tf ? check('two-factor', tf.required, `${tf.required ? 'Required' : 'Not required'}; ${tf.ownersWithTwoFactor} of ${tf.owners} owners have it on`) : unknown('two-factor', NEEDS_SITE));
  return checks.sort((a, b) => GO_LIVE_IDS.indexOf(a.id) - GO_LIVE_IDS.indexOf(b.id));
}
