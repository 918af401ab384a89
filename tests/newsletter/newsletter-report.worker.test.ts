import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { getDb } from '../../worker/db/client';
import { applyDeliveryEvents } from '../../worker/services/email/delivery-events';
import { clickToken } from '../../worker/services/newsletter/click-tracking';
import { sendNewsletterBatch } from '../../worker/services/newsletter/sender';
import { createNewsletter } from '../../worker/services/newsletter/store';
import { call, client, okJson, signIn } from '../harness/worker/helpers';
import { fakeMailChannels, MAILCHANNELS_ACCOUNT_ID, mailChannelsEnv, type RecordedRequest } from '../harness/worker/mailchannels-fake';

// The report per issue and first-party click tracking (docs/product.md §5.10).

const ORIGIN = 'https://northgatecpa.example';
const BODY =
  '<p>Read <a href="https://www.irs.gov/newsroom?x=1&amp;y=2">the IRS news</a>, ' +
  '<a href="mailto:office@example.com">write to us</a> or <a href="https://northgatecpa.example/schedule">book a call</a>.</p>';
const IRS = 'https://www.irs.gov/newsroom?x=1&y=2';
const SCHEDULE = 'https://northgatecpa.example/schedule';

async function addSubscribers(emails: string[]) {
  for (const email of emails) await env.DB.prepare("INSERT INTO newsletter_subscriptions (email, active, confirmed_at) VALUES (?, 'true', 1)").bind(email).run();
}

const htmlOf = (r: RecordedRequest) => r.body.content.find((c) => c.type === 'text/html')!.value;
const textOf = (r: RecordedRequest) => r.body.content.find((c) => c.type === 'text/plain')!.value;
const trackedLinks = (r: RecordedRequest) => [...htmlOf(r).matchAll(/href="(https:\/\/northgatecpa\.example\/r\/[^"]+)"/g)].map((m) => m[1]);
const pathOf = (url: string) => new URL(url).pathname;

/** Sends a newsletter to the given addresses through the fake MailChannels, one request id per message. */
async function sendIssue(emails: string[], subject = 'Spring issue') {
  await addSubscribers(emails);
  const requests = fakeMailChannels((_, i) => Response.json({ request_id: `req-${subject}-${i}` }, { status: 202 }));
  const testEnv = mailChannelsEnv();
  const db = getDb(testEnv.DB);
  const issue = await createNewsletter(db, { subject, content: BODY, trigger: 'manual' });
  await sendNewsletterBatch(testEnv, db, { origin: ORIGIN });
  const byRecipient = new Map(requests.map((r) => [r.body.personalizations[0].to[0].email, r]));
  return { issue, requests, byRecipient };
}

describe('click tracking', () => {
  it("rewrites each recipient's body links to their own signed /r/ link, leaves mailto and the archive alone", async () => {
    const { issue, byRecipient } = await sendIssue(['ann@example.com', 'ben@example.com']);
    const ann = byRecipient.get('ann@example.com')!;
    const ben = byRecipient.get('ben@example.com')!;
    const annLinks = trackedLinks(ann);
    expect(annLinks).toHaveLength(2);
    expect(annLinks.every((l) => /^https:\/\/northgatecpa\.example\/r\/\d+\.\d+\.\d\.[A-Za-z0-9_-]{22}$/.test(l))).toBe(true);
    expect(new Set([...annLinks, ...trackedLinks(ben)]).size).toBe(4);
    expect(htmlOf(ann)).not.toContain('irs.gov');
    expect(htmlOf(ann)).toContain('href="mailto:office@example.com"');
    expect(textOf(ann)).toContain(`the IRS news (${annLinks[0]})`);
    // No open pixel.
    expect(htmlOf(ann)).not.toMatch(/<img/i);
    // The public archive shows the original links.
    const archived = await okJson(await client().api.newsletters[':id'].$get({ param: { id: String(issue.id) } }));
    expect(archived.html).toContain('href="https://www.irs.gov/newsroom?x=1&amp;y=2"');
    expect(archived.html).not.toContain('/r/');
  });

  it('redirects only to the original URL, counts once per recipient and link, and answers 404 to anything forged', async () => {
    const { issue, byRecipient } = await sendIssue(['ann@example.com', 'ben@example.com']);
    const [annIrs, annSchedule] = trackedLinks(byRecipient.get('ann@example.com')!);
    const [benIrs] = trackedLinks(byRecipient.get('ben@example.com')!);

    for (let i = 0; i < 3; i++) {
      const res = await call(pathOf(annIrs));
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe(IRS);
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
    expect((await call(pathOf(annSchedule))).headers.get('location')).toBe(SCHEDULE);
    expect((await call(pathOf(benIrs))).headers.get('location')).toBe(IRS);

    const clicks = await env.DB.prepare('SELECT link_index, count(*) AS n FROM newsletter_clicks WHERE newsletter_id = ? GROUP BY link_index ORDER BY link_index')
      .bind(issue.id)
      .all();
    expect(clicks.results).toEqual([
      { link_index: 0, n: 2 },
      { link_index: 2, n: 1 },
    ]);

    // Forged: another signature, another link position under ann's signature, garbage, a target in the path.
    const token = pathOf(annIrs).slice('/r/'.length);
    const [nid, did, , sig] = token.split('.');
    const flipped = sig[0] === 'A' ? `B${sig.slice(1)}` : `A${sig.slice(1)}`;
    for (const forged of [`${nid}.${did}.0.${flipped}`, `${nid}.${did}.2.${sig}`, 'nonsense', `${token}?url=https://evil.example`.replace('?', '%3F')]) {
      const res = await call(`/r/${forged}`);
      expect(res.status, forged).toBe(404);
      expect(res.headers.get('location')).toBeNull();
    }
    // Validly signed, but naming the mailto link, a position the issue has no link at, or another issue's delivery.
    for (const ref of [
      { newsletterId: issue.id, deliveryId: Number(did), linkIndex: 1 },
      { newsletterId: issue.id, deliveryId: Number(did), linkIndex: 7 },
      { newsletterId: issue.id + 1, deliveryId: Number(did), linkIndex: 0 },
    ]) {
      expect((await call(`/r/${await clickToken(env.JWT_SECRET, ref)}`)).status).toBe(404);
    }
    const total = await env.DB.prepare('SELECT count(*) AS n FROM newsletter_clicks').first<{ n: number }>();
    expect(total?.n).toBe(3);
  });

  it('the owner can turn tracking off: links go out as they are, and old tracked links still lead there without counting', async () => {
    const first = await sendIssue(['ann@example.com']);
    const [oldLink] = trackedLinks(first.byRecipient.get('ann@example.com')!);
    const cookie = await signIn();
    const settings = client({ cookie }).api.admin.newsletter.settings;
    expect(await okJson(await settings.$get())).toEqual({ clickTracking: true });
    expect(await okJson(await settings.$put({ json: { clickTracking: false } }))).toMatchObject({ clickTracking: false });
    expect((await client().api.admin.newsletter.settings.$put({ json: { clickTracking: true } })).status).toBe(401);

    const second = await sendIssue(['cy@example.com'], 'Summer issue');
    const html = htmlOf(second.byRecipient.get('cy@example.com')!);
    expect(trackedLinks(second.byRecipient.get('cy@example.com')!)).toEqual([]);
    expect(html).toContain('href="https://www.irs.gov/newsroom?x=1&amp;y=2"');

    const res = await call(pathOf(oldLink));
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(IRS);
    const total = await env.DB.prepare('SELECT count(*) AS n FROM newsletter_clicks').first<{ n: number }>();
    expect(total?.n).toBe(0);
  });
});

describe('the report per issue', () => {
  it('counts recipients, delivered, bounced, complained, unsubscribed through it and clicks per link', async () => {
    const emails = ['ann@example.com', 'ben@example.com', 'cy@example.com', 'dee@example.com'];
    const { issue, byRecipient } = await sendIssue(emails);
    const requestId = (email: string) => `req-Spring issue-${[...byRecipient.keys()].indexOf(email)}`;
    const event = (name: string, email: string, extra: Record<string, unknown> = {}) => ({
      event: name,
      customer_handle: MAILCHANNELS_ACCOUNT_ID,
      request_id: requestId(email),
      recipients: [email],
      timestamp: Math.floor(Date.now() / 1000),
      ...extra,
    });
    await applyDeliveryEvents(
      env.DB,
      [
        event('delivered', 'ann@example.com'),
        event('delivered', 'ben@example.com'),
        event('hard-bounced', 'cy@example.com', { status: '550', reason: 'no such user' }),
        event('delivered', 'dee@example.com'),
      ],
      { accountId: MAILCHANNELS_ACCOUNT_ID },
    );
    await applyDeliveryEvents(env.DB, [event('complained', 'dee@example.com', { timestamp: Math.floor(Date.now() / 1000) + 5 })], {
      accountId: MAILCHANNELS_ACCOUNT_ID,
    });
    // Ben unsubscribes through this issue's one-click link.
    const oneClick = byRecipient.get('ben@example.com')!.body.headers!['List-Unsubscribe'].slice(1, -1);
    const unsubscribed = await call(new URL(oneClick).pathname + new URL(oneClick).search, { method: 'POST', body: 'List-Unsubscribe=One-Click', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(unsubscribed.status).toBe(200);
    // Clicks: ann twice on the IRS link (counted once) and once on the schedule link; ben on the IRS link.
    const [annIrs, annSchedule] = trackedLinks(byRecipient.get('ann@example.com')!);
    await call(pathOf(annIrs));
    await call(pathOf(annIrs));
    await call(pathOf(annSchedule));
    await call(pathOf(trackedLinks(byRecipient.get('ben@example.com')!)[0]));

    const cookie = await signIn();
    const report = await okJson(await client({ cookie }).api.admin['sent-newsletters'][':id'].report.$get({ param: { id: String(issue.id) } }));
    expect(report).toMatchObject({
      id: issue.id,
      subject: 'Spring issue',
      status: 'sent',
      recipients: 4,
      accepted: 4,
      failed: 0,
      delivered: 3,
      bounced: 1,
      complained: 1,
      unsubscribed: 1,
      clickers: 2,
      links: [
        { url: IRS, clicks: 2 },
        { url: SCHEDULE, clicks: 1 },
      ],
    });
    expect((await client({ cookie }).api.admin['sent-newsletters'][':id'].report.$get({ param: { id: '999' } })).status).toBe(404);
    expect((await client().api.admin['sent-newsletters'][':id'].report.$get({ param: { id: String(issue.id) } })).status).toBe(401);
  });
});
