import { TriangleAlert } from 'lucide-react';
import { useTurnstileStatus } from '../api/turnstile';

/** The machine's own addresses: local development serves plain HTTP there, and Turnstile is not needed. */
function isLocalHostname(hostname: string): boolean {
  return hostname === 'localhost' || hostname.endsWith('.localhost') || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/** The site as visitors reach it: HTTPS on a host that is not this machine. */
export function isPublicOrigin(location: { protocol: string; hostname: string }): boolean {
  return location.protocol === 'https:' && !isLocalHostname(location.hostname);
}

/** What is missing, in the operator's terms, or null when Turnstile is fully on. */
export function turnstileWarning(status: { secretSet: boolean; siteKeySet: boolean }): { title: string; text: string } | null {
  if (status.secretSet && status.siteKeySet) return null;
  if (status.secretSet) {
    return {
      title: 'Turnstile is half configured: the public forms are refused',
      text: 'TURNSTILE_SECRET is set but TURNSTILE_SITE_KEY is not, so the forms show no challenge and the worker refuses what they send. Set the site key in wrangler.jsonc "vars", then rebuild and deploy.',
    };
  }
  if (status.siteKeySet) {
    return {
      title: 'Turnstile is half configured: nothing is checked',
      text: 'TURNSTILE_SITE_KEY is set but the TURNSTILE_SECRET secret is not, so the forms show the challenge and the worker checks nothing. Set it with `npx wrangler secret put TURNSTILE_SECRET`.',
    };
  }
  return {
    title: 'Turnstile is off: the public forms have no bot protection',
    text: `A flood from many networks can use up the day's caps of the contact, booking, newsletter and chat hand-off forms and close them to real visitors. Set TURNSTILE_SITE_KEY in wrangler.jsonc "vars" and the TURNSTILE_SECRET secret, then rebuild and deploy (README, "Deploying to Cloudflare").`,
  };
}

/**
 * Cloudflare Turnstile is recommended for production (README, "Deploying to Cloudflare"): while the
 * site runs on a public HTTPS origin without it, the signed-in admin sees why and what to set.
 * Locally (localhost, plain HTTP) it shows nothing and asks nothing.
 */
export function TurnstileWarning() {
  const onPublicOrigin = isPublicOrigin(window.location);
  const status = useTurnstileStatus(onPublicOrigin);
  const warning = onPublicOrigin && status.data ? turnstileWarning(status.data) : null;
  if (!warning) return null;
  return (
    <div role="alert" aria-labelledby="turnstile-warning-title" className="flex gap-3 rounded-md border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900">
      <TriangleAlert className="mt-0.5 h-5 w-5 shrink-0" aria-hidden="true" />
      <div className="space-y-1">
        <p id="turnstile-warning-title" className="font-semibold">
          {warning.title}
        </p>
        <p>{warning.text}</p>
      </div>
    </div>
  );
}
