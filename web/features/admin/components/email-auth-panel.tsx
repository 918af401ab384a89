import { Loader2, MailCheck, ShieldCheck, Webhook } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { CardContent } from '../../../components/ui/card';
import { Input, Label } from '../../../components/ui/input';
import { toast } from '../../../components/ui/use-toast';
import { errorMessage } from '../../../lib/api';
import { useDeliveryEvents, useEnrollDeliveryEvents, useSendTestEmail, useTestEmailAuth, type EmailAuthResult } from '../api/admin-api';
import { PanelCard } from './admin-page-parts';
import { BreakableAddress } from './breakable-address';

/** 'Email Authentication Setup' for MailChannels (docs/product.md §7): test, test send, setup steps. */
export function EmailAuthPanel() {
  const [results, setResults] = useState<EmailAuthResult[] | null>(null);
  const [testEmail, setTestEmail] = useState('');
  const testAuth = useTestEmailAuth();
  const testSend = useSendTestEmail();

  function runAuthTest() {
    testAuth.mutate(undefined, {
      onSuccess: ({ results }) => {
        setResults(results);
        const ready = results.filter((r) => r.success).map((r) => r.provider);
        if (ready.length > 0) toast({ title: 'Email authentication successful', description: `${ready.join(' and ')} ready to send` });
        else toast({ variant: 'destructive', title: 'Email authentication failed', description: 'Check configuration and try again' });
      },
      onError: (error) => toast({ variant: 'destructive', title: 'Authentication test failed', description: errorMessage(error, 'Please try again') }),
    });
  }

  function sendTest(event: FormEvent) {
    event.preventDefault();
    const address = testEmail.trim();
    if (!address) return;
    testSend.mutate(address, {
      onSuccess: (data) =>
        data.success
          ? toast({ title: 'Test email sent!', description: data.message })
          : toast({ variant: 'destructive', title: 'Test email failed', description: data.message }),
      onError: (error) => toast({ variant: 'destructive', title: 'Test email failed', description: errorMessage(error, 'Please try again') }),
    });
  }

  return (
    <PanelCard
      id="email-auth-heading"
      title="Email Authentication Setup"
      icon={ShieldCheck}
      intro="Newsletters and notifications go out through MailChannels, signed with DKIM."
    >
      <CardContent className="space-y-5">
        <div className="space-y-2">
          <Button variant="outline" onClick={runAuthTest} disabled={testAuth.isPending}>
            {testAuth.isPending ? <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" /> : <ShieldCheck className="h-4 w-4" aria-hidden="true" />}
            Test Email Auth
          </Button>
          {results && (
            <ul className="space-y-1 text-sm" aria-label="Email authentication results">
              {results.map((r) => (
                <li key={r.provider} className="flex flex-wrap items-center gap-2">
                  <Badge variant={r.success ? 'success' : 'destructive'}>
                    {r.provider}: {r.success ? 'Ready' : 'Not ready'}
                  </Badge>
                  {r.detail && <span className="text-slate-600">{r.detail}</span>}
                </li>
              ))}
            </ul>
          )}
        </div>

        <form onSubmit={sendTest} className="space-y-2" noValidate>
          <Label htmlFor="test-email">Test recipient</Label>
          <div className="flex flex-col gap-2 sm:flex-row">
            <Input
              id="test-email"
              type="email"
              autoComplete="email"
              placeholder="you@example.com"
              value={testEmail}
              onChange={(e) => setTestEmail(e.target.value)}
              className="sm:max-w-sm"
            />
            <Button type="submit" disabled={!testEmail.trim() || testSend.isPending}>
              {testSend.isPending ? <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" /> : <MailCheck className="h-4 w-4" aria-hidden="true" />}
              Send Test
            </Button>
          </div>
        </form>

        <details open className="rounded-md border border-slate-200 bg-slate-50 p-4 text-sm">
          <summary className="cursor-pointer font-semibold text-brand-800">Setup instructions</summary>
          <ol className="mt-3 list-decimal space-y-3 pl-5 text-slate-700">
            <li>
              <strong>MailChannels API key.</strong> Create an API key in the MailChannels console and store it as a Worker
              secret: <code className="rounded bg-white px-1">wrangler secret put MAILCHANNELS_API_KEY</code>. Without it, e-mail
              is kept in the e-mail log instead of being sent, without the tokens of its links (invitations, confirmations),
              so those links reach nobody.
            </li>
            <li>
              <strong>SPF.</strong> Add to the sending domain's TXT record:{' '}
              <code className="rounded bg-white px-1">
                v=spf1 <BreakableAddress address="include:relay.mailchannels.net" /> ~all
              </code> (merge with any
              existing SPF record; a domain may have only one).
            </li>
            <li>
              <strong>DKIM.</strong> Generate a 2048-bit RSA key pair. Publish the public key as a TXT record at{' '}
              <code className="rounded bg-white px-1">mailchannels._domainkey</code> (
              <code className="rounded bg-white px-1">v=DKIM1; k=rsa; p=&lt;public key&gt;</code>), then set the
              secrets <code className="rounded bg-white px-1">DKIM_PRIVATE_KEY</code>,{' '}
              <code className="rounded bg-white px-1">DKIM_DOMAIN</code> and <code className="rounded bg-white px-1">DKIM_SELECTOR</code>{' '}
              (mailchannels).
            </li>
            <li>
              <strong>Domain lockdown.</strong> Add a TXT record at <code className="rounded bg-white px-1">_mailchannels</code> with{' '}
              <code className="rounded bg-white px-1">v=mc1 auth=&lt;your MailChannels account id&gt;</code>, so only
              your account may send mail as your domain.
            </li>
          </ol>
        </details>
      </CardContent>
    </PanelCard>
  );
}

/**
 * "Enable delivery events": enrolls this site's webhook URL with MailChannels, whose delivery events
 * then mark the e-mail log and suppress bounced and complaining subscribers. Needs the MailChannels
 * key and the firm's account id (only its own events count); without either the button stays
 * disabled and the block says why (without the account id the webhook refuses every event). Its own
 * block, after the panel's original blocks (docs/product.md §6.2).
 */
export function DeliveryEventsPanel() {
  const status = useDeliveryEvents();
  const enroll = useEnrollDeliveryEvents();
  const data = status.data;

  function enable() {
    enroll.mutate(undefined, {
      onSuccess: (answer) => toast({ title: 'Delivery events enabled', description: answer.message }),
      onError: (error) => toast({ variant: 'destructive', title: 'Could not enable delivery events', description: errorMessage(error, 'Please try again') }),
    });
  }

  return (
    <PanelCard
      id="delivery-events-heading"
      title="Delivery events"
      icon={Webhook}
      intro="MailChannels reports what happens after the hand-off: deliveries show in the e-mail log, and addresses that hard-bounce, complain or soft-bounce three times in a row are suppressed from the newsletter."
    >
      <CardContent className="space-y-2">
        <div className="flex flex-wrap items-center gap-2 text-sm" aria-live="polite">
          {status.isPending && <span className="text-slate-600">Checking enrollment…</span>}
          {status.isError && <span className="text-red-700">{errorMessage(status.error, 'Could not check the enrollment')}</span>}
          {data && (
            <>
              <Badge variant={data.enrolled ? 'success' : 'secondary'}>{data.enrolled ? 'Enrolled' : 'Not enrolled'}</Badge>
              {data.configured && !data.accountIdSet && <Badge variant="destructive">Events refused: account id missing</Badge>}
              <span className={data.configured && !data.accountIdSet ? 'text-red-700' : 'text-slate-600'}>{data.message}</span>
            </>
          )}
        </div>
        <Button
          variant="outline"
          onClick={enable}
          disabled={enroll.isPending || data?.configured === false || data?.accountIdSet === false || data?.enrolled === true}
        >
          {enroll.isPending ? <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" /> : <Webhook className="h-4 w-4" aria-hidden="true" />}
          Enable delivery events
        </Button>
      </CardContent>
    </PanelCard>
  );
}
