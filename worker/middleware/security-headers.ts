import type { MiddlewareHandler } from 'hono';
import { isAdminPath } from '#core/public-routes';
import { tagManagerIdOf, turnstileSiteKeyOf } from '#core/site-keys';
import type { AppEnv } from '../env';

/**
 * The security headers of every response, in one module. The worker adds them to its own answers
 * (securityHeaders() below, wired in worker/index.ts); the build writes the same maps into
 * dist/client/_headers so Workers Static Assets sends them with HTML and files (vite.config.ts).
 *
 * Two policies (docs/product.md §12): the public pages may load Google Tag
 * Manager, but only when a container is configured; the admin pages and the admin API never load
 * anything from a third party, whatever is configured, so a Tag Manager container cannot run script
 * beside the firm's client data.
 */

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
export function publicSecurityHeaders(options: PublicPolicyOptions): Record<string, string> {
  return { 'Content-Security-Policy': publicContentSecurityPolicy(options), ...commonHeaders };
}

/** Every security header of an admin page or admin API answer. */
export const adminSecurityHeaders: Record<string, string> = { 'Content-Security-Policy': adminContentSecurityPolicy, ...commonHeaders, ...backOfficeHeaders };

/**
 * Adds the site's security headers to every response the worker produces (API answers and any
 * asset it forwards): the admin's first-party-only policy on /admin and /api/admin, elsewhere the
 * public one, which allows Tag Manager only when GTM_ID names a container and Turnstile only when TURNSTILE_SITE_KEY
 * is set.
 *
 * @example
 * app.use(securityHeaders())
 */
export function securityHeaders(): MiddlewareHandler<AppEnv> {
  return async function securityHeadersMiddleware(c, next) {
    await next();
    const pathname = new URL(c.req.url).pathname;
    const headers = isAdminPath(pathname)
      ? adminSecurityHeaders
      : publicSecurityHeaders({ tagManager: tagManagerIdOf(c.env.GTM_ID) !== null, turnstile: turnstileSiteKeyOf(c.env.TURNSTILE_SITE_KEY) !== null });
    for (const [name, value] of Object.entries(headers)) {
      // A forwarded asset carries _headers' CSP, written at build time: the worker's, which knows
      // GTM_ID at run time, replaces it.
      if (name === 'Content-Security-Policy' || !c.res.headers.has(name)) c.res.headers.set(name, value);
    }
    // API answers are personal or live: never cache them in shared caches.
    if (pathname.startsWith('/api/') && !c.res.headers.has('Cache-Control')) {
      c.res.headers.set('Cache-Control', 'no-store');
    }
  };
}
