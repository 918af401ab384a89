// The go-live checklist (docs/product.md §6.10): every requirement of a production deployment, in
// one place for its three readers: the worker's GET /api/admin/go-live (worker/services/platform/
// go-live.ts), which reads each state live; the owner's screen /admin/go-live; and `npm run doctor`
// (scripts/doctor.ts), which evaluates the same settings checks from the local files. Only the
// checks' logic and short details go into the worker bundle; the titles and what-to-do lines
// (GO_LIVE_REQUIREMENTS) are read by the screen and the doctor only.

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

/** One requirement's state as read now, with one line saying what was found (never a secret's value). */
export interface GoLiveCheck {
  id: GoLiveId;
  state: GoLiveState;
  detail: string;
}

/**
 * The Worker secrets a production deployment needs (`npx wrangler secret put NAME`), for whoever
 * checks them before a deploy. JWT_SECRET is the one the worker cannot run without; the others turn
 * on sending (MailChannels, DKIM) and the forms' bot check (Turnstile).
 */
export const PRODUCTION_SECRETS = ['JWT_SECRET', 'MAILCHANNELS_API_KEY', 'DKIM_DOMAIN', 'DKIM_SELECTOR', 'DKIM_PRIVATE_KEY', 'TURNSTILE_SECRET'] as const;
/** The plain vars (wrangler config `vars`) a production deployment needs set to its own values. */
export const PRODUCTION_VARS = ['SITE_URL', 'MAIL_FROM', 'MAILCHANNELS_ACCOUNT_ID', 'TURNSTILE_SITE_KEY'] as const;

/** Where the owner or operator does it: a back-office screen, or a section of the README's deploy guide. */
export type GoLivePlace = { screen: string; label: string } | { readme: string };

export interface GoLiveRequirement {
  id: GoLiveId;
  title: string;
  /** One line: what to do while it is missing. */
  todo: string;
  where: GoLivePlace;
}

const DEPLOY = 'Deploying to Cloudflare';

export const GO_LIVE_REQUIREMENTS: readonly GoLiveRequirement[] = [
  { id: 'jwt-secret', title: 'Session signing secret (JWT_SECRET)', todo: 'Set a random secret of at least 32 characters: `openssl rand -base64 48 | npx wrangler secret put JWT_SECRET`.', where: { readme: `${DEPLOY}, 6. Secrets` } },
  { id: 'site-url', title: 'SITE_URL is the site’s address', todo: 'Set SITE_URL in the wrangler config vars to the https:// address visitors use (the one this page is open on), then deploy.', where: { readme: `${DEPLOY}, 7. SITE_URL` } },
  { id: 'https', title: 'Served over HTTPS', todo: 'Open the site through its https:// address and turn on "Always Use HTTPS" for the domain in the Cloudflare dashboard.', where: { readme: `${DEPLOY}, 13. Always Use HTTPS` } },
  { id: 'mail-from', title: 'Sending address (MAIL_FROM)', todo: 'Set MAIL_FROM in the wrangler config vars to an address on the firm’s own domain, then deploy.', where: { readme: `${DEPLOY}, 5. Vars` } },
  { id: 'mailchannels-api-key', title: 'MailChannels API key', todo: 'Create an API key in the MailChannels console and set it: `npx wrangler secret put MAILCHANNELS_API_KEY`. Until then e-mail stays in the e-mail log.', where: { readme: `${DEPLOY}, 11. E-mail through MailChannels` } },
  { id: 'mailchannels-account-id', title: 'MailChannels account id', todo: 'Set MAILCHANNELS_ACCOUNT_ID in the wrangler config vars (the id in the MailChannels console’s footer), then deploy.', where: { readme: `${DEPLOY}, 5. Vars` } },
  { id: 'dkim-settings', title: 'DKIM signing key', todo: 'Generate the key pair and set DKIM_PRIVATE_KEY, DKIM_DOMAIN and DKIM_SELECTOR as secrets (the README has the commands).', where: { readme: `${DEPLOY}, 11. E-mail through MailChannels` } },
  { id: 'dns-spf', title: 'SPF record', todo: 'Add `include:relay.mailchannels.net` to the sending domain’s SPF TXT record (or create `v=spf1 include:relay.mailchannels.net ~all`).', where: { readme: `${DEPLOY}, 12. DNS` } },
  { id: 'dns-dkim', title: 'DKIM record', todo: 'Publish the public key as a TXT record at `<DKIM_SELECTOR>._domainkey` of the DKIM domain (`v=DKIM1;p=...`).', where: { readme: `${DEPLOY}, 12. DNS` } },
  { id: 'dns-lockdown', title: 'MailChannels Domain Lockdown record', todo: 'Add a TXT record at `_mailchannels` of the sending domain: `v=mc1 auth=<MailChannels account id>`.', where: { readme: `${DEPLOY}, 12. DNS` } },
  { id: 'dns-dmarc', title: 'DMARC record', todo: 'Add a TXT record at `_dmarc` of the sending domain, e.g. `v=DMARC1; p=none; rua=mailto:<an address for reports>`.', where: { readme: `${DEPLOY}, 12. DNS` } },
  { id: 'delivery-events', title: 'Delivery events enrolled', todo: 'Press "Enable delivery events" in the admin panel’s Delivery events block (again after SITE_URL changes).', where: { screen: '/admin', label: 'Admin Panel, Delivery events' } },
  { id: 'turnstile', title: 'Turnstile on the public forms', todo: 'Set TURNSTILE_SITE_KEY in the wrangler config vars and the TURNSTILE_SECRET secret, then rebuild and deploy.', where: { readme: `${DEPLOY}, 10. Turnstile` } },
  { id: 'two-factor', title: 'Two-factor sign-in required', todo: 'Turn on "Require two-factor sign-in" under Security settings, after setting up your own.', where: { screen: '/admin/users', label: 'Users, Security settings' } },
];

/** The settings the checks read: the worker's env, or the doctor's .dev.vars and wrangler config vars. */
export type GoLiveSettings = Partial<Record<'JWT_SECRET' | 'SITE_URL' | 'MAIL_FROM' | 'MAILCHANNELS_API_KEY' | 'MAILCHANNELS_ACCOUNT_ID' | 'DKIM_DOMAIN' | 'DKIM_SELECTOR' | 'DKIM_PRIVATE_KEY' | 'TURNSTILE_SECRET' | 'TURNSTILE_SITE_KEY', string>>;

const set = (value: string | undefined) => Boolean(value?.trim());
const check = (id: GoLiveId, done: boolean, detail: string): GoLiveCheck => ({ id, state: done ? 'done' : 'missing', detail });
/** A domain reserved for examples (RFC 2606), as the repository's own settings use: never a firm's. */
const isExampleHost = (host: string) => /(^|\.)(example|test|invalid|localhost)$|(^|\.)example\.(com|net|org)$/i.test(host);
/** The placeholder `npm start` replaces (.dev.vars.example). */
const PLACEHOLDER_SECRET = 'generated-by-npm-start';
/** The site key's form (worker/security-headers.ts turnstileSiteKeyOf reads it the same way). */
const TURNSTILE_SITE_KEY = /^[0-3]x[A-Za-z0-9_-]{8,64}$/;

/** The sending domain: the part of MAIL_FROM after the @, lower case; null without one. */
export function sendingDomain(settings: GoLiveSettings): string | null {
  const at = settings.MAIL_FROM?.trim().lastIndexOf('@') ?? -1;
  const domain = at > 0 ? settings.MAIL_FROM!.trim().slice(at + 1).toLowerCase() : '';
  return /^[a-z0-9.-]+\.[a-z]{2,}$/.test(domain) ? domain : null;
}

function siteUrlOf(settings: GoLiveSettings): URL | null {
  try {
    return settings.SITE_URL?.trim() ? new URL(settings.SITE_URL.trim()) : null;
  } catch {
    return null;
  }
}

/**
 * The checks that need only the settings: secrets present (never their values), vars set to the
 * firm's own values. `origin`, when known (the request's), is what SITE_URL must equal.
 */
export function settingsChecks(settings: GoLiveSettings, origin?: string): GoLiveCheck[] {
  const jwt = settings.JWT_SECRET?.trim() ?? '';
  const site = siteUrlOf(settings);
  const domain = sendingDomain(settings);
  const dkim = (['DKIM_DOMAIN', 'DKIM_SELECTOR', 'DKIM_PRIVATE_KEY'] as const).filter((name) => !set(settings[name]));
  const turnstile = [set(settings.TURNSTILE_SECRET) ? null : 'TURNSTILE_SECRET', TURNSTILE_SITE_KEY.test(settings.TURNSTILE_SITE_KEY?.trim() ?? '') ? null : 'TURNSTILE_SITE_KEY'].filter(Boolean);
  let siteDetail = 'SITE_URL is not set';
  if (site) {
    siteDetail = `SITE_URL is ${site.origin}`;
    if (site.protocol !== 'https:') siteDetail += ', not an https:// address';
    else if (isExampleHost(site.hostname)) siteDetail += ', a placeholder address';
    else if (origin && site.origin !== origin) siteDetail += `, but this page is open on ${origin}`;
  } else if (set(settings.SITE_URL)) siteDetail = 'SITE_URL is not an address';
  return [
    check('jwt-secret', jwt.length >= 32 && jwt !== PLACEHOLDER_SECRET, jwt ? (jwt.length < 32 ? 'Set, but shorter than 32 characters' : jwt === PLACEHOLDER_SECRET ? 'Still the placeholder of .dev.vars.example' : 'Set') : 'Not set'),
    check('site-url', siteDetail === `SITE_URL is ${site?.origin}`, siteDetail),
    check('mail-from', domain !== null && !isExampleHost(domain), domain ? `Sends from the domain ${domain}${isExampleHost(domain) ? ', a placeholder domain' : ''}` : 'MAIL_FROM is not an e-mail address'),
    check('mailchannels-api-key', set(settings.MAILCHANNELS_API_KEY), set(settings.MAILCHANNELS_API_KEY) ? 'Set' : 'Not set: e-mail is kept in the e-mail log, not sent'),
    check('mailchannels-account-id', set(settings.MAILCHANNELS_ACCOUNT_ID), set(settings.MAILCHANNELS_ACCOUNT_ID) ? 'Set' : 'Not set: delivery events are refused'),
    check('dkim-settings', dkim.length === 0, dkim.length === 0 ? 'Set' : `Not set: ${dkim.join(', ')}`),
    check('turnstile', turnstile.length === 0, turnstile.length === 0 ? 'Both keys set' : `Not set: ${turnstile.join(', ')}`),
  ];
}

/** The DNS names the e-mail records live at (docs: README "12. DNS"), null where a setting they depend on is missing. */
export function dnsNames(settings: GoLiveSettings): { spf: string | null; dkim: string | null; lockdown: string | null; dmarc: string | null } {
  const domain = sendingDomain(settings);
  const dkimDomain = settings.DKIM_DOMAIN?.trim().toLowerCase();
  const selector = settings.DKIM_SELECTOR?.trim().toLowerCase();
  return {
    spf: domain,
    dkim: dkimDomain && selector ? `${selector}._domainkey.${dkimDomain}` : null,
    lockdown: domain && `_mailchannels.${domain}`,
    dmarc: domain && `_dmarc.${domain}`,
  };
}

/** Whether a name's TXT records hold what the requirement needs, and what was found. */
export function dnsRecordCheck(id: 'dns-spf' | 'dns-dkim' | 'dns-lockdown' | 'dns-dmarc', name: string, records: string[], accountId?: string): GoLiveCheck {
  const none = check(id, false, `No such TXT record at ${name}`);
  if (id === 'dns-spf') {
    const spf = records.filter((r) => /^v=spf1(\s|$)/i.test(r));
    if (spf.length === 0) return none;
    if (spf.length > 1) return check(id, false, `${name} has ${spf.length} SPF records: a name may hold only one`);
    return check(id, /\sinclude:relay\.mailchannels\.net(\s|$)/i.test(` ${spf[0]}`), /include:relay\.mailchannels\.net/i.test(spf[0]) ? `Found at ${name}` : `The SPF record at ${name} does not include relay.mailchannels.net`);
  }
  if (id === 'dns-dkim') {
    const key = records.find((r) => /(^|;)\s*p=[A-Za-z0-9+/]{40,}/.test(r));
    return key ? check(id, true, `Found at ${name}`) : none;
  }
  if (id === 'dns-dmarc') return records.some((r) => /^v=DMARC1\s*(;|$)/i.test(r)) ? check(id, true, `Found at ${name}`) : none;
  const lockdown = records.filter((r) => /^v=mc1(\s|$)/i.test(r));
  if (lockdown.length === 0) return none;
  const auths = lockdown.flatMap((r) => [...r.matchAll(/\bauth=([^\s;]+)/gi)].map((m) => m[1]));
  if (auths.length === 0) return check(id, false, `The record at ${name} has no auth= (the older cfid= form is no longer accepted)`);
  if (!accountId) return { id, state: 'unknown', detail: `Found at ${name}; set MAILCHANNELS_ACCOUNT_ID to check its account` };
  return auths.includes(accountId) ? check(id, true, `Found at ${name}`) : check(id, false, `The record at ${name} names another MailChannels account`);
}

/** The TXT strings of a DNS-over-HTTPS JSON answer (application/dns-json), each record's strings joined. */
export function dohTxtRecords(body: unknown): string[] {
  const answers = (body as { Answer?: { type?: unknown; data?: unknown }[] } | null)?.Answer;
  if (!Array.isArray(answers)) return [];
  return answers
    .filter((a) => a?.type === 16 && typeof a.data === 'string')
    .map((a) => [...(a.data as string).matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1].replace(/\\(.)/g, '$1')).join('') || (a.data as string));
}
