import { afterAll, describe, expect, it } from 'vitest';
import { adminSessionPerFile, api, saveScreensAtBothWidths, waitUntil } from '../harness/e2e/admin-helpers';
import { baseUrl, DESKTOP, islandReady, newPage } from '../harness/e2e/browser';

// docs/decisions/0016-published-content-serving.md: what the firm publishes is in every public
// page's first HTML (text, JSON-LD), served by the worker; Preview shows the draft to the signed-in
// admin only; a restore brings the previous text back; markup typed into a field is shown as text.
// The test leaves the defaults published again (a restore of version 1), so the files sharing this
// server see the site as it was.

interface Content {
  firm: { name: string; legalName: string; contact: { phone: string; phoneHref: string } };
  faq: { items: { question: string; answer: string }[] };
  about: { story: string[] };
}
interface ContentState {
  published: { version: number; content: Content };
  draft: { basedOn: number } | null;
}

const admin = adminSessionPerFile('/admin');

afterAll(async () => {
  if (admin.context) await api(admin.context, 'POST', '/api/admin/content/restore', { version: 1 }).catch(() => undefined);
});

/** The page's first HTML, as a client without JavaScript (a crawler) gets it. */
async function plainFetch(path: string, init: RequestInit = {}): Promise<{ status: number; html: string }> {
  const res = await fetch(new URL(path, baseUrl()), { redirect: 'manual', ...init });
  return { status: res.status, html: await res.text() };
}

/** The page's JSON-LD, parsed. */
const jsonLd = (html: string) => JSON.parse(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)![1]) as Record<string, unknown>;

describe('published content on the public pages', () => {
  it('previews the draft to the admin only, publishes it into the first HTML, and restores the text before', async () => {
    const { context, page } = admin;
    const before = await api<ContentState>(context, 'GET', '/api/admin/content');
    const start = before.published.version;
    const oldAnswer = before.published.content.faq.items[0].answer;
    const stamp = Date.now();
    const answer = `Yes: we file in every state <script>alert("faq-${stamp}")</script> & more.`;
    const phone = '(724) 555-0177';
    const content = structuredClone(before.published.content);
    content.faq.items[0].answer = answer;
    content.firm.contact.phone = phone;
    content.firm.contact.phoneHref = 'tel:+17245550177';
    content.about.story[0] = `Our story <script>alert("story-${stamp}")</script> <strong>begins</strong> here.`;
    const { revision } = await api<{ revision: number }>(context, 'PUT', '/api/admin/content/draft', { basedOn: start, content });

    // Preview: the draft, in the same page, to the signed-in admin; nobody else.
    expect((await plainFetch('/api/admin/content/preview?path=/faq')).status).toBe(401);
    await page.goto('/api/admin/content/preview?path=/faq');
    await page.getByRole('heading', { name: 'Frequently Asked Questions', level: 1 }).waitFor();
    await islandReady(page, 'faq-list');
    await page.locator('[data-testid="faq-item"] button').first().click();
    await page.getByText(`alert("faq-${stamp}")`, { exact: false }).first().waitFor();
    await saveScreensAtBothWidths(page, 'preview-faq');
    // Not yet on the public page.
    expect((await plainFetch('/faq')).html).not.toContain(`faq-${stamp}`);

    const { version } = await api<{ version: number }>(context, 'POST', '/api/admin/content/publish', { basedOn: start, revision });
    expect(version).toBe(start + 1);

    // The first HTML of /faq and / carries the published text and JSON-LD; markup is text.
    const faq = await plainFetch('/faq');
    expect(faq.status).toBe(200);
    expect(faq.html).toContain(`Yes: we file in every state &lt;script&gt;alert(&quot;faq-${stamp}&quot;)&lt;/script&gt; &amp; more.`);
    expect(faq.html).not.toContain(`<script>alert("faq-${stamp}")`);
    const faqLd = jsonLd(faq.html) as { mainEntity: { acceptedAnswer: { text: string } }[] };
    expect(faqLd.mainEntity[0].acceptedAnswer.text).toBe(answer);
    expect(faq.html).toContain(phone);
    const home = await plainFetch('/');
    expect(home.status).toBe(200);
    expect(jsonLd(home.html).telephone).toBe(phone);
    expect(home.html).not.toContain('(724) 555-0142');
    // Rich text keeps its subset and shows the rest as text.
    const about = await plainFetch('/about');
    expect(about.html).toContain(`Our story &lt;script&gt;alert("story-${stamp}")&lt;/script&gt; <strong>begins</strong> here.`);
    // The 404 page follows too, with its status.
    const missing = await plainFetch('/newsletter/999999');
    expect(missing.status).toBe(404);
    expect(missing.html).toContain(phone);

    // In the browser: the page hydrates what its HTML shows (no mismatch, no fetch for content).
    const visitor = await newPage(admin.browser, DESKTOP);
    await visitor.page.goto('/faq');
    await islandReady(visitor.page, 'faq-list');
    await visitor.page.locator('[data-testid="faq-item"] button').first().click();
    await visitor.page.getByText(`alert("faq-${stamp}")`, { exact: false }).first().waitFor();
    await visitor.page.getByRole('link', { name: phone }).first().waitFor();
    await saveScreensAtBothWidths(visitor.page, 'published-faq');
    await visitor.page.goto('/');
    await islandReady(visitor.page, 'header');
    await saveScreensAtBothWidths(visitor.page, 'published-home');
    expect(visitor.errors).toEqual([]);
    await visitor.context.close();

    // Restore: the version before comes back as the newest.
    await api(context, 'POST', '/api/admin/content/restore', { version: start });
    const restored = await plainFetch('/faq');
    expect(restored.html).not.toContain(`faq-${stamp}`);
    expect(jsonLd(restored.html).mainEntity).toEqual(expect.arrayContaining([expect.objectContaining({ acceptedAnswer: { '@type': 'Answer', text: oldAnswer } })]));
  });

  it('shows the published firm on the client-only screens (e-mail link pages, admin) from their first frame', async () => {
    const { context, page } = admin;
    const before = await api<ContentState>(context, 'GET', '/api/admin/content');
    const start = before.published.version;
    const oldName = before.published.content.firm.name;
    const name = `Harbor & <Lane> CPA ${Date.now()}`;
    const phone = '(724) 555-0166';
    const content = structuredClone(before.published.content);
    content.firm.name = name;
    content.firm.legalName = `${name}, LLC`;
    content.firm.contact.phone = phone;
    content.firm.contact.phoneHref = 'tel:+17245550166';
    const draft = await api<{ revision: number }>(context, 'PUT', '/api/admin/content/draft', { basedOn: start, content });
    await api(context, 'POST', '/api/admin/content/publish', { basedOn: start, revision: draft.revision });
    try {
      // The shell's first HTML carries the published content (markup as text) and names the firm.
      const shell = await plainFetch('/newsletter/confirmed');
      expect(shell.status).toBe(200);
      expect(shell.html).toContain(`<title>Harbor &amp; &lt;Lane&gt; CPA`);
      expect(shell.html).toContain('"name":"Harbor & \\u003cLane> CPA');
      // (The firm's own texts in the JSON may still name it as before: the head may not.)
      expect(shell.html.slice(0, shell.html.indexOf('</head>'))).not.toContain(oldName);
      // A path under the worker's routes that names no screen: the 404 page, with the published firm.
      const missing = await plainFetch('/admin/no-such-screen');
      expect(missing.status).toBe(404);
      expect(missing.html).toContain('<title>404 Page Not Found | Harbor &amp; &lt;Lane&gt; CPA');
      expect(missing.html).toContain(phone);
      expect(missing.html).not.toContain(oldName);

      const visitor = await newPage(admin.browser, DESKTOP);
      for (const path of ['/newsletter/confirmed', '/newsletter/unsubscribed', '/newsletter/invalid-link', '/appointment/cancel', '/appointment/reschedule']) {
        await visitor.page.goto(path);
        await visitor.page.locator('footer').getByText(phone).first().waitFor();
        expect(await visitor.page.title(), path).toContain(name);
        const text = await visitor.page.locator('body').innerText();
        expect(text, path).toContain(name);
        expect(text, path).not.toContain(oldName);
      }
      expect(visitor.errors).toEqual([]);
      await visitor.context.close();

      // The back office names the published firm too.
      await page.goto('/admin');
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await waitUntil(async () => (await page.title()).includes(name), 'the admin page title names the published firm');
    } finally {
      await api(context, 'POST', '/api/admin/content/restore', { version: start });
    }
  });
});
