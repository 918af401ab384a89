/**
 * The security headers of every response. The worker adds them to its own answers
 * (middleware/security-headers.ts); the build writes the same maps into dist/client/_headers so
 * Workers Static Assets sends them with HTML and files (vite.config.ts).
 *
 * Two policies (docs/product.md §12): the public pages may load Google Tag
 * Manager, but only when a container is configured; the admin pages and the admin API never load
 * anything from a third party, whatever is configured, so a Tag Manager container cannot run script
 * beside the firm's client data.
 */

/** Only Google Tag Manager container ids (GTM-XXXXXXX) count as configured; anything else is ignored. */
export const TAG_MANAGER_ID_PATTERN = /^GTM-[A-Z0-9]{4,12}$/;

export function hasTagManager(gtmId: string | undefined | null): boolean {
  return typeof gtmId === 'string' && TAG_MANAGER_ID_PATTERN.test(gtmId);
}

/** Paths whose pages (and API) are the back office: the admin CSP applies there. */
export function isAdminPath(pathname: string): boolean {
  return pathname === '/admin' || pathname.startsWith('/admin/') || pathname === '/api/admin' || pathname.startsWith('/api/admin/');
}

/** A Turnstile site key as the dashboard issues them (0x…, or Cloudflare's 1x…/2x…/3x… test keys); anything else is ignored. */
const TURNSTILE_SITE_KEY_PATTERN = /^[0-3]x[A-Za-z0-9_-]{8,64}$/;

/** The configured Turnstile site key, or null when none (or something that is not one) is set. */
export function turnstileSiteKeyOf(value: string | undefined | null): string | null {
  return typeof value === 'string' && TURNSTILE_SITE_KEY_PATTERN.test(value) ? value : null;
}

const TAG_MANAGER_SCRIPT = 'https://www.googletagmanager.com';
/** Turnstile's script and its challenge iframe (web/lib/turnstile.ts); only when a site key is configured. */
const TURNSTILE_HOST = 'https://challenges.cloudflare.com';
const ANALYTICS_CONNECT = 'https://www.google-analytics.com https://*.google-analytics.com';

function policy(directives: { script: string; img: string; connect: string; frame?: string }): string {
  return [
    "default-src 'self'",
    `script-src ${directives.script}`,
    // Radix and React set inline style attributes.
    "style-src 'self' 'unsafe-inline'",
    `img-src ${directives.img}`,
    "font-src 'self'",
    `connect-src ${directives.connect}`,
    ...(directives.frame ? [`frame-src ${directives.frame}`] : []),
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
  ].join('; ');
}

export interface PublicPolicyOptions {
  tagManager: boolean;
  /** Cloudflare Turnstile on the public forms (a site key is configured). Optional: off when absent. */
  turnstile?: boolean;
}

/**
 * The public pages' policy. Tag Manager (and the analytics hosts it talks to) is allowed only when a
 * container is configured: it loads after cookie consent (web/features/cookie-consent/consent.ts).
 * Turnstile's host is allowed (script, its iframe, its calls) only when a site key is configured.
 */
export function publicContentSecurityPolicy(options: PublicPolicyOptions): string {
  const script = ["'self'", ...(options.tagManager ? [TAG_MANAGER_SCRIPT] : []), ...(options.turnstile ? [TURNSTILE_HOST] : [])];
  const connect = ["'self'", ...(options.tagManager ? [ANALYTICS_CONNECT] : []), ...(options.turnstile ? [TURNSTILE_HOST] : [])];
  return policy({
    script: script.join(' '),
    img: "'self' data: https:",
    connect: connect.join(' '),
    // The contact page's map, and Turnstile's challenge.
    frame: ['https://www.google.com', ...(options.turnstile ? [TURNSTILE_HOST] : [])].join(' '),
  });
}

/**
 * The admin pages' policy: no third-party script, connection or frame. Images stay open to https:
 * because the newsletter preview (a sandboxed srcdoc iframe, which inherits this policy) shows the
 * remote images the issue's recipients will see; an image cannot run code.
 */
export const adminContentSecurityPolicy = policy({ script: "'self'", img: "'self' data: https:", connect: "'self'" });

const commonHeaders: Record<string, string> = {
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'Strict-Transport-Security': 'max-age=63072000; includeSubDomains',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=()',
};

/**
 * The back office's windows belong to no one else: a cross-origin page that opened the admin panel
 * (or that the panel opened) gets no handle on it. The public pages do not send it: on a phone,
 * arriving on a page that sends it swaps the browser into a fresh renderer process, a cost a
 * visitor pays before the first paint and Lighthouse measures as blocking time, for a page that
 * holds nothing an opener could read (docs/decisions/0010-opener-policy-on-the-back-office.md).
 */
const backOfficeHeaders: Record<string, string> = {
  'Cross-Origin-Opener-Policy': 'same-origin',
};

/** Every security header of a public page or answer. */
export function securityHeaders(options: PublicPolicyOptions): Record<string, string> {
  return { 'Content-Security-Policy': publicContentSecurityPolicy(options), ...commonHeaders };
}

/** Every security header of an admin page or admin API answer. */
export const adminSecurityHeaders: Record<string, string> = { 'Content-Security-Policy': adminContentSecurityPolicy, ...commonHeaders, ...backOfficeHeaders };
