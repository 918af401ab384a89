import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { ISSUE_SHELL_PATH, ISSUE_SHELL_PLACEHOLDER, publicRoutes } from '#core/public-routes';
import worker from '../../worker/index';
import { call, client, ORIGIN, signIn } from '../harness/worker/helpers';

// The public newsletter archive (docs/product.md §5.7; worker/routes/newsletter-archive.ts) and the
// sitemap the worker now serves (worker/routes/site-pages.ts).

const SITE = env.SITE_URL.replace(/\/+$/, '');

type Summary = { id: number; subject: string; sentAt: string; sentOn: string };
type Issue = Summary & { html: string };

async function addIssue(subject: string, options: { status?: 'sent' | 'sending'; sentAt?: number; content?: string } = {}): Promise<number> {
  const row = await env.DB.prepare(
    'INSERT INTO sent_newsletters (subject, content, sent_at, status, recipient_count, total_recipients, failed_count) VALUES (?, ?, ?, ?, 41, 42, 1) RETURNING id',
  )
    .bind(subject, options.content ?? `<p>Body of ${subject}</p>`, options.sentAt ?? Date.now(), options.status ?? 'sent')
    .first<{ id: number }>();
  return row!.id;
}

/** A subscriber who got the issue, so a leak of recipient data would have something to leak. */
async function addRecipient(newsletterId: number) {
  const sub = await env.DB.prepare("INSERT INTO newsletter_subscriptions (email, name, active, confirmed_at) VALUES ('reader@example.com', 'Rita Reader', 'true', 1) RETURNING id").first<{ id: number }>();
  await env.DB.prepare("INSERT INTO newsletter_deliveries (newsletter_id, subscriber_id, email, status, error) VALUES (?, ?, 'reader@example.com', 'failed', 'mailbox full')")
    .bind(newsletterId, sub!.id)
    .run();
}

describe('GET /api/newsletters', () => {
  it('lists only the issues whose sending finished, newest first, with id, subject and date only', async () => {
    const older = await addIssue('October issue', { sentAt: Date.UTC(2026, 9, 1) });
    const newer = await addIssue('November issue', { sentAt: Date.UTC(2026, 10, 1) });
    await addIssue('Still going out', { status: 'sending', sentAt: Date.UTC(2026, 10, 20) });
    await addRecipient(newer);

    const res = await client().api.newsletters.$get();
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const list = (await res.json()) as Summary[];
    expect(list).toEqual([
      { id: newer, subject: 'November issue', sentAt: new Date(Date.UTC(2026, 10, 1)).toISOString(), sentOn: '2026-10-31' },
      { id: older, subject: 'October issue', sentAt: new Date(Date.UTC(2026, 9, 1)).toISOString(), sentOn: '2026-09-30' },
    ]);
  });

  it("dates each issue by the firm's calendar day, not UTC's", async () => {
    // 03:30 UTC on 2 March is still 1 March in Warrendale (EST, UTC-5); 16:00 UTC on 2 July is 2 July (EDT).
    await addIssue('Evening send', { sentAt: Date.UTC(2026, 2, 2, 3, 30) });
    await addIssue('Summer send', { sentAt: Date.UTC(2026, 6, 2, 16, 0) });
    const list = (await (await client().api.newsletters.$get()).json()) as Summary[];
    expect(list.map((i) => [i.subject, i.sentOn])).toEqual([
      ['Summer send', '2026-07-02'],
      ['Evening send', '2026-03-01'],
    ]);
  });

  it('answers an empty list when nothing went out yet', async () => {
    await addIssue('Draft still sending', { status: 'sending' });
    expect(await (await client().api.newsletters.$get()).json()).toEqual([]);
  });

  it('needs no session and no same-origin header (a public read)', async () => {
    await addIssue('Public issue');
    const res = await client({ headers: { origin: 'https://elsewhere.example' } }).api.newsletters.$get();
    expect(res.status).toBe(200);
    expect(((await res.json()) as Summary[]).map((i) => i.subject)).toEqual(['Public issue']);
  });
});

describe('GET /api/newsletters/:id', () => {
  it('answers the sanitised issue in its frame, with no unsubscribe link, token or recipient', async () => {
    const id = await addIssue('Year-end moves', {
      sentAt: Date.UTC(2026, 10, 5),
      content: '<h2>Year-end</h2><p onclick="steal()">Harvest losses<script>alert(1)</script> <a href="javascript:alert(1)">x</a></p><img src="x" onerror="alert(2)">',
    });
    await addRecipient(id);

    const res = await client().api.newsletters[':id'].$get({ param: { id: String(id) } });
    expect(res.status).toBe(200);
    const issue = (await res.json()) as Issue;
    expect(Object.keys(issue).sort()).toEqual(['html', 'id', 'sentAt', 'sentOn', 'subject']);
    expect(issue).toMatchObject({ id, subject: 'Year-end moves', sentAt: new Date(Date.UTC(2026, 10, 5)).toISOString(), sentOn: '2026-11-04' });
    // The issue itself, in the frame subscribers got (firm header, postal address)...
    expect(issue.html).toContain('<h2>Year-end</h2>');
    expect(issue.html).toContain('Harvest losses');
    expect(issue.html).toContain('<title>Year-end moves</title>');
    expect(issue.html).toContain(`Subscribe at <a href="${SITE}"`);
    // ...sanitised again...
    expect(issue.html).not.toMatch(/<script|onclick|onerror|javascript:/i);
    // ...and nothing personal: no unsubscribe link, no token, no recipient.
    expect(issue.html).not.toMatch(/unsubscribe|token=|reader@example\.com|Rita/i);
    expect(JSON.stringify(issue)).not.toMatch(/recipient|mailbox full|failedCount/i);
  });

  it('is 404 for an unknown id, an issue still sending and an id that is not a number', async () => {
    const sending = await addIssue('Half out', { status: 'sending' });
    for (const path of ['/api/newsletters/999999', `/api/newsletters/${sending}`, '/api/newsletters/abc', '/api/newsletters/01', '/api/newsletters/-1']) {
      // Raw call: ids that are not numbers, which the typed client would not compile.
      const res = await call(path);
      expect(res.status, path).toBe(404);
      expect(await res.json(), path).toEqual({ message: 'Newsletter not found' });
    }
  });

  it('shows an issue the admin sent through the real send path', async () => {
    const cookie = await signIn();
    await env.DB.prepare("INSERT INTO newsletter_subscriptions (email, active, confirmed_at) VALUES ('one@example.com', 'true', 1)").run();
    // Raw call: the answer's newsletterId is not in the route's declared type.
    const sent = await call('/api/admin/send-newsletter', { cookie, body: { subject: 'Admin issue', content: '<p>From the dialog</p>' } });
    expect(sent.status).toBe(200);
    const { newsletterId } = (await sent.json()) as { newsletterId: number };
    const list = (await (await client().api.newsletters.$get()).json()) as Summary[];
    expect(list.map((i) => [i.id, i.subject])).toEqual([[newsletterId, 'Admin issue']]);
    const issue = (await (await client().api.newsletters[':id'].$get({ param: { id: String(newsletterId) } })).json()) as Issue;
    expect(issue.html).toContain('<p>From the dialog</p>');
    expect(issue.html).not.toMatch(/unsubscribe|token=|one@example\.com/i);
  });
});

describe('GET /newsletter/:id (the issue page)', () => {
  it('answers 404 for an unknown, unsent or malformed id, before any asset is looked up', async () => {
    const sending = await addIssue('Half out', { status: 'sending' });
    for (const path of ['/newsletter/424242', `/newsletter/${sending}`, '/newsletter/0', '/newsletter/issue-shell']) {
      // Raw call: site pages, not API routes.
      const res = await call(path);
      expect(res.status, path).toBe(404);
    }
  });
});

/**
 * The worker with a stand-in for the static assets binding (the build's files are not the subject
 * here): it serves a shell shaped like the one scripts/prerender.ts writes and records each path asked.
 */
async function withFakeAssets(path: string) {
  const asked: string[] = [];
  const shell = `<!doctype html><html lang="en"><head><title>Newsletter | Northgate CPA</title>
<meta name="description" content="An issue." /><link rel="canonical" href="${SITE}/newsletter/1" />
<meta property="og:type" content="website" /><meta property="og:title" content="Newsletter | Northgate CPA" />
<meta property="og:description" content="An issue." /><meta property="og:url" content="${SITE}/newsletter/1" /></head>
<body><div id="root" data-prerendered="${ISSUE_SHELL_PLACEHOLDER}"><p>Loading</p></div></body></html>`;
  const ASSETS = {
    fetch: async (input: RequestInfo | URL) => {
      const url = new URL(input instanceof Request ? input.url : input.toString());
      asked.push(url.pathname);
      if (url.pathname === ISSUE_SHELL_PATH) return new Response(shell, { headers: { 'content-type': 'text/html' } });
      if (url.pathname === '/404') return new Response('<h1>404 Page Not Found</h1>', { headers: { 'content-type': 'text/html' } });
      return new Response(`asset ${url.pathname}`, { headers: { 'content-type': 'text/html' } });
    },
  } as unknown as Fetcher;
  const ctx = createExecutionContext();
  const res = await worker.fetch(new Request(`${ORIGIN}${path}`), { ...env, ASSETS }, ctx);
  await waitOnExecutionContext(ctx);
  return { res, text: await res.text(), asked };
}

describe('GET /newsletter/:id with the page shell', () => {
  it("serves a sent issue's shell with its title, description and address in the head, ready to hydrate", async () => {
    const id = await addIssue('Q4 "moves" & <deadlines>', { content: '<h2>Year-end</h2><p>Harvest   losses before December 31.</p>' });
    const { res, text, asked } = await withFakeAssets(`/newsletter/${id}`);
    expect(res.status).toBe(200);
    expect(asked).toEqual([ISSUE_SHELL_PATH]);
    expect(text).toContain('<title>Q4 "moves" &amp; &lt;deadlines&gt; | Northgate CPA</title>');
    expect(text).toContain('<meta name="description" content="Year-end Harvest losses before December 31." />');
    expect(text).toContain('<meta property="og:description" content="Year-end Harvest losses before December 31." />');
    expect(text).toContain('<meta property="og:title" content="Q4 &quot;moves&quot; &amp; &lt;deadlines&gt; | Northgate CPA" />');
    expect(text).toContain(`<link rel="canonical" href="${SITE}/newsletter/${id}" />`);
    expect(text).toContain(`<meta property="og:url" content="${SITE}/newsletter/${id}" />`);
    expect(text).toContain(`<div id="root" data-prerendered="/newsletter/${id}">`);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
  });

  it('serves the 404 page with status 404 for an unknown id, and never the shell under its own address', async () => {
    for (const path of ['/newsletter/31337', ISSUE_SHELL_PATH]) {
      const { res, text, asked } = await withFakeAssets(path);
      expect(res.status, path).toBe(404);
      expect(text, path).toBe('<h1>404 Page Not Found</h1>');
      expect(asked, path).toEqual(['/404']);
    }
  });

  it('hands the e-mail link pages under /newsletter/ to the static assets', async () => {
    for (const path of ['/newsletter/confirm', '/newsletter/confirmed', '/newsletter/unsubscribe', '/newsletter/invalid-link']) {
      const { res, text, asked } = await withFakeAssets(path);
      expect(res.status, path).toBe(200);
      expect(text, path).toBe(`asset ${path}`);
      expect(asked, path).toEqual([path]);
    }
  });
});

describe('GET /sitemap.xml', () => {
  it('lists the public routes, the archive and every sent issue, and no unsent one', async () => {
    const sent = await addIssue('Sitemap issue', { sentAt: Date.UTC(2026, 10, 2) });
    const sending = await addIssue('Not yet', { status: 'sending' });
    const res = await call('/sitemap.xml');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/xml/);
    const xml = await res.text();
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">')).toBe(true);
    const locs = [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]);
    const expected = [...publicRoutes.filter((r) => r.sitemap).map((r) => `${SITE}${r.path}`), `${SITE}/newsletter/${sent}`];
    expect(locs).toEqual(expected);
    expect(locs).toContain(`${SITE}/newsletter`);
    expect(locs).not.toContain(`${SITE}/newsletter/${sending}`);
    expect(locs).not.toContain(`${SITE}/payment-success`);
    expect(xml).toContain(`<loc>${SITE}/newsletter/${sent}</loc>\n    <lastmod>2026-11-02</lastmod>`);
  });
});
