// What each go-live requirement (core/go-live.ts) is and what to do while it is missing, in the
// owner's and the operator's words: read by /admin/go-live and `npm run doctor`, never by the worker
// (its bundle has a budget: scripts/check-budgets.ts).
import type { GoLiveId } from './go-live';

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
