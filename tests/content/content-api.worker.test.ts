import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { defaultContent } from '#core/content/default-content';
import { bookingServiceTypes } from '#core/content/booking';
import { firm } from '#core/content/firm';
import { leader } from '#core/content/leader';
import { privacyPolicySections } from '#core/content/privacy-policy';
import { richTextToPlainText, sanitizeRichText } from '#core/content/rich-text';
import { CONTENT_MAX_BYTES, siteContentSchema, type SiteContent } from '#core/content/schema';
import { testimonials } from '#core/content/testimonials';
import { getDb } from '../../worker/db/client';
import { getPublishedContent } from '../../worker/services/content/store';
import { accountSignedIn } from '../harness/worker/admin-accounts-helpers';
import { ADMIN, call, client, signIn } from '../harness/worker/helpers';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** A deep copy of the defaults to edit. */
/** A copy of the default content to edit, with `edit` applied. */
const editable = (edit: (content: SiteContent) => void = () => {}): SiteContent => {
  const content = structuredClone(defaultContent);
  edit(content);
  return content;
};

interface ContentState {
  published: { version: number; publishedAt: string | null; publishedBy: string | null; content: SiteContent };
  draft: { basedOn: number; revision: number; updatedAt: string; updatedBy: string; content: SiteContent } | null;
}

async function state(cookie: string): Promise<ContentState> {
  const res = await client({ cookie }).api.admin.content.$get();
  expect(res.status).toBe(200);
  return (await res.json()) as ContentState;
}

// Raw call: the tests save content the validator refuses, which the typed client would not compile.
const saveDraft = (cookie: string, basedOn: number, content: unknown) => call('/api/admin/content/draft', { method: 'PUT', body: { basedOn, content }, cookie });
/** Publishes the draft as it is now (its current revision, 0 when there is none), or the `revision` given. */
async function publish(cookie: string, basedOn: number, revision?: number) {
  const current = revision ?? (cookie ? ((await state(cookie)).draft?.revision ?? 0) : 0);
  return client({ cookie }).api.admin.content.publish.$post({ json: { basedOn, revision: current } });
}

/** Saves `content` on top of `basedOn` and publishes it; returns the new version. */
async function publishContent(cookie: string, basedOn: number, content: SiteContent): Promise<number> {
  expect((await saveDraft(cookie, basedOn, content)).status).toBe(200);
  const res = await publish(cookie, basedOn);
  expect(res.status).toBe(200);
  return ((await res.json()) as { version: number }).version;
}

describe('the default content document', () => {
  it('passes the schema and comes back unchanged (nothing lost, nothing rewritten)', () => {
    const parsed = siteContentSchema.parse(defaultContent);
    expect(parsed).toEqual(defaultContent);
    expect(JSON.stringify(parsed)).toBe(JSON.stringify(defaultContent));
  });

  it("holds today's constants: the firm, the leader, testimonials, privacy policy and booking types", () => {
    expect(defaultContent.firm.name).toBe(firm.name);
    expect(defaultContent.firm.contact.address).toEqual(firm.contact.address);
    expect(defaultContent.about.leader.bio.map(richTextToPlainText)).toEqual(leader.bio);
    expect(defaultContent.testimonials).toEqual(testimonials);
    expect(defaultContent.privacyPolicy.sections.flatMap((s) => s.paragraphs.map(richTextToPlainText))).toEqual(privacyPolicySections.flatMap((s) => s.paragraphs));
    expect(defaultContent.booking.serviceTypes).toEqual(bookingServiceTypes);
    expect(defaultContent.chat.suggestedQuestionGroups.flatMap((g) => g.questions)).toHaveLength(12);
  });

  it('keeps rich text to its subset, idempotently, and shows anything else as text', () => {
    const dirty = '<p onclick="x">Hi <strong style="x">there</strong> <a href="javascript:alert(1)">bad</a> <a href="https://example.com/?a=1&b=2" target="_blank">good</a><script>alert(1)</script><img src=x onerror=alert(1)>';
    const clean = sanitizeRichText(dirty);
    expect(clean).toBe(
      '&lt;p onclick="x"&gt;Hi <strong>there</strong> bad <a href="https://example.com/?a=1&amp;b=2">good</a>&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;',
    );
    expect(sanitizeRichText(clean)).toBe(clean);
    expect(sanitizeRichText('<em>open')).toBe('<em>open</em>');
  });
});

describe('the content API', () => {
  it('is closed without a session (every endpoint 401)', async () => {
    expect((await client().api.admin.content.$get()).status).toBe(401);
    expect((await client().api.admin.content.versions.$get()).status).toBe(401);
    expect((await saveDraft('', 1, defaultContent)).status).toBe(401);
    expect((await publish('', 1)).status).toBe(401);
    expect((await client().api.admin.content.restore.$post({ json: { version: 1 } })).status).toBe(401);
  });

  it('refuses every write from another origin with 403, even with a valid session', async () => {
    const cookie = await signIn();
    const cross = { origin: 'https://attacker.example' };
    const writes = [
      client({ cookie, headers: cross }).api.admin.content.draft.$put({ json: { basedOn: 1, content: defaultContent } }),
      client({ cookie, headers: cross }).api.admin.content.publish.$post({ json: { basedOn: 1, revision: 1 } }),
      client({ cookie, headers: { 'sec-fetch-site': 'cross-site' } }).api.admin.content.restore.$post({ json: { version: 1 } }),
    ];
    for (const res of await Promise.all(writes)) expect(res.status).toBe(403);
    expect((await state(cookie)).draft).toBeNull();
    expect(await env.DB.prepare('select count(*) as n from content_versions').first('n')).toBe(0);
  });

  it('shows version 1 = the defaults and no draft on a fresh install', async () => {
    const body = await state(await signIn());
    expect(body).toEqual({ published: { version: 1, publishedAt: null, publishedBy: null, content: defaultContent }, draft: null });
    expect(await getPublishedContent(getDb(env.DB))).toEqual(defaultContent);
  });

  it('saves a draft, publishes it as version 2 and serves it as the published content', async () => {
    const cookie = await signIn();
    const content = editable();
    content.firm.contact.phone = '(724) 555-0199';
    const saved = await saveDraft(cookie, 1, content);
    expect(saved.status).toBe(200);
    expect(await saved.json()).toEqual({ basedOn: 1, revision: 1, updatedAt: expect.stringMatching(ISO), updatedBy: ADMIN.username, content });

    const withDraft = await state(cookie);
    expect(withDraft.published.version).toBe(1);
    expect(withDraft.draft).toEqual({ basedOn: 1, revision: 1, updatedAt: expect.stringMatching(ISO), updatedBy: ADMIN.username, content });
    // A draft is not live.
    expect((await getPublishedContent(getDb(env.DB))).firm.contact.phone).toBe(firm.contact.phone);

    const published = await publish(cookie, 1);
    expect(published.status).toBe(200);
    expect(await published.json()).toEqual({ version: 2 });
    const after = await state(cookie);
    expect(after.published).toEqual({ version: 2, publishedAt: expect.stringMatching(ISO), publishedBy: ADMIN.username, content });
    expect(after.draft).toBeNull();
    expect((await getPublishedContent(getDb(env.DB))).firm.contact.phone).toBe('(724) 555-0199');
  });

  it('answers 400 with field messages keyed by path', async () => {
    const cookie = await signIn();
    const content = editable();
    content.firm.contact.email = 'not an address';
    content.firm.links.payNow = 'javascript:alert(1)';
    content.firm.name = 'x'.repeat(81);
    content.testimonials[0].rating = 6;
    content.faq.items[0].category = 'Nowhere';
    content.about.leader.social[0].href = 'data:text/html,<script>alert(1)</script>';
    const res = await saveDraft(cookie, 1, content);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { message: string; fields: Record<string, string[]> };
    expect(body.fields).toMatchObject({
      'content.firm.contact.email': ['Please enter a valid email address'],
      'content.firm.links.payNow': ['Must be a web address starting with https:// or http://'],
      'content.firm.name': ['Firm name must be at most 80 characters'],
      'content.testimonials.0.rating': ['Rating must be 1 to 5'],
      'content.faq.items.0.category': ['Choose one of the categories'],
      'content.about.leader.social.0.href': ['Must be a web address (https://), a mailto: or a tel: link'],
    });
    expect(body.message).toEqual(expect.any(String));
    expect((await state(cookie)).draft).toBeNull();

    const noContent = await saveDraft(cookie, 1, undefined);
    expect(noContent.status).toBe(400);
    expect((await publish(cookie, 0)).status).toBe(400);
    // Raw call: the body is malformed on purpose, which the typed client would not compile.
    expect((await call('/api/admin/content/restore', { body: { version: 'one' }, cookie })).status).toBe(400);
  });

  it('refuses publishing without a draft, or a draft that no longer passes the schema, with 400', async () => {
    const cookie = await signIn();
    const res = await publish(cookie, 1);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message: 'There is no draft to publish' });

    // A draft saved under an older, looser schema: publishing checks it again.
    const old = editable();
    old.firm.name = '';
    await env.DB.prepare("insert into content_draft (id, based_on, content, updated_by) values (1, 1, ?, 'admin')").bind(JSON.stringify(old)).run();
    const invalid = await publish(cookie, 1);
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toEqual({ message: 'Firm name is required', fields: { 'content.firm.name': ['Firm name is required'] } });
    expect(await env.DB.prepare('select count(*) as n from content_versions').first('n')).toBe(0);
    expect((await state(cookie)).draft?.content.firm.name).toBe('');
  });

  it('refuses a draft or a publish on a stale version with 409 saying which version is current, by whom and when', async () => {
    const cookie = await signIn();
    expect(await publishContent(cookie, 1, editable((c) => (c.firm.tagline = 'Mine')))).toBe(2);

    // A second tab still on version 1.
    const theirs = editable((c) => (c.firm.tagline = 'Theirs'));
    const stale = await saveDraft(cookie, 1, theirs);
    expect(stale.status).toBe(409);
    const body = (await stale.json()) as { message: string; current: unknown };
    expect(body.current).toEqual({ version: 2, publishedAt: expect.stringMatching(ISO), publishedBy: ADMIN.username });
    expect(body.message).toContain('version 2 is now current');
    expect((await state(cookie)).draft).toBeNull();

    // A draft on version 2, then a publish claiming version 1.
    expect((await saveDraft(cookie, 2, theirs)).status).toBe(200);
    const stalePublish = await publish(cookie, 1);
    expect(stalePublish.status).toBe(409);
    expect(((await stalePublish.json()) as unknown as { current: { version: number } }).current.version).toBe(2);

    // A restore lands in between: the draft made on version 2 can no longer be published on it.
    expect((await client({ cookie }).api.admin.content.restore.$post({ json: { version: 1 } })).status).toBe(200);
    expect((await publish(cookie, 2)).status).toBe(409);
    expect((await publish(cookie, 3)).status).toBe(409);
    const kept = await state(cookie);
    expect(kept.published.version).toBe(3);
    expect(kept.draft?.content.firm.tagline).toBe('Theirs');
  });

  it("refuses a draft saved over another tab's newer draft with 409, when the editor says which draft it loaded", async () => {
    const cookie = await signIn();
    const first = editable();
    first.firm.tagline = 'First tab';
    const second = editable();
    second.firm.tagline = 'Second tab';
    // Both tabs opened with no draft; the first saves, then the second, which has not seen it.
    const saved = await client({ cookie }).api.admin.content.draft.$put({ json: { basedOn: 1, draftUpdatedAt: null, content: first } });
    expect(saved.status).toBe(200);
    const { updatedAt } = (await saved.json()) as { updatedAt: string };
    const refused = await client({ cookie }).api.admin.content.draft.$put({ json: { basedOn: 1, draftUpdatedAt: null, content: second } });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({
      message: `The draft changed since you loaded it (saved by ${ADMIN.username} at ${updatedAt}). Reload to see it.`,
      draft: { updatedAt, updatedBy: ADMIN.username, revision: 1 },
    });
    expect((await state(cookie)).draft?.content.firm.tagline).toBe('First tab');
    // The first tab saves again over its own draft.
    first.firm.tagline = 'First tab, again';
    const again = await client({ cookie }).api.admin.content.draft.$put({ json: { basedOn: 1, draftUpdatedAt: updatedAt, content: first } });
    expect(again.status).toBe(200);
    expect((await state(cookie)).draft?.content.firm.tagline).toBe('First tab, again');
    // A stale timestamp is refused too.
    expect((await client({ cookie }).api.admin.content.draft.$put({ json: { basedOn: 1, draftUpdatedAt: updatedAt, content: second } })).status).toBe(409);
  });

  it('lets exactly one of two concurrent publishes win', async () => {
    const cookie = await signIn();
    const content = editable();
    content.firm.tagline = 'Racing';
    expect((await saveDraft(cookie, 1, content)).status).toBe(200);
    const results = await Promise.all([publish(cookie, 1), publish(cookie, 1), publish(cookie, 1)]);
    const statuses = results.map((r) => r.status).sort();
    expect(statuses[0]).toBe(200);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    // The losers found the version moved on (409) or the draft already consumed (400).
    for (const s of statuses.slice(1)) expect([400, 409]).toContain(s);
    expect(await env.DB.prepare('select count(*) as n from content_versions').first('n')).toBe(1);
  });

  it('restores an earlier version as a new version with its content', async () => {
    const cookie = await signIn();
    const second = editable((c) => (c.firm.hoursSummary = 'Second'));
    expect(await publishContent(cookie, 1, second)).toBe(2);
    expect(await publishContent(cookie, 2, editable((c) => (c.firm.hoursSummary = 'Third')))).toBe(3);

    const restored = await client({ cookie }).api.admin.content.restore.$post({ json: { version: 2 } });
    expect(restored.status).toBe(200);
    expect(await restored.json()).toEqual({ version: 4 });
    expect((await state(cookie)).published).toMatchObject({ version: 4, publishedBy: ADMIN.username, content: second });

    const toDefaults = await client({ cookie }).api.admin.content.restore.$post({ json: { version: 1 } });
    expect(await toDefaults.json()).toEqual({ version: 5 });
    expect((await state(cookie)).published.content).toEqual(defaultContent);

    expect((await client({ cookie }).api.admin.content.restore.$post({ json: { version: 99 } })).status).toBe(404);
  });

  it('lists versions newest first, each with a readable diff against the one before', async () => {
    const cookie = await signIn();
    const second = editable();
    second.firm.contact.phone = '(724) 555-0199';
    second.testimonials.pop();
    expect(await publishContent(cookie, 1, second)).toBe(2);
    const third = structuredClone(second);
    third.faq.items[0].question = 'Who are your clients?';
    expect(await publishContent(cookie, 2, third)).toBe(3);
    expect((await client({ cookie }).api.admin.content.restore.$post({ json: { version: 1 } })).status).toBe(200);

    const res = await client({ cookie }).api.admin.content.versions.$get();
    expect(res.status).toBe(200);
    const versions = (await res.json()) as { version: number; publishedAt: string | null; publishedBy: string | null; restoredFrom: number | null; changes: unknown[]; moreChanges: number }[];
    expect(versions.map((v) => v.version)).toEqual([4, 3, 2, 1]);
    expect(versions[0]).toMatchObject({ restoredFrom: 1, publishedBy: ADMIN.username, publishedAt: expect.stringMatching(ISO) });
    expect(versions[1].changes).toEqual([{ path: 'faq.items.0.question', kind: 'changed', before: 'Who do you work with?', after: 'Who are your clients?' }]);
    expect(versions[2].changes).toEqual([
      { path: 'firm.contact.phone', kind: 'changed', before: '(724) 555-0142', after: '(724) 555-0199' },
      { path: 'testimonials.5', kind: 'removed' },
    ]);
    expect(versions[3]).toEqual({ version: 1, publishedAt: null, publishedBy: null, restoredFrom: null, changes: [], moreChanges: 0 });
    expect(versions[0].changes).toContainEqual({ path: 'testimonials.5', kind: 'added' });
  });

  it('stores a <script> in a text field as text and sanitises rich text on save', async () => {
    const cookie = await signIn();
    const content = editable();
    content.firm.tagline = '<script>alert(1)</script>';
    content.about.leader.bio[0] = 'Daniel <strong>founded</strong> the firm.<script>alert(1)</script><a href="javascript:alert(1)">x</a>';
    expect((await saveDraft(cookie, 1, content)).status).toBe(200);
    const { draft } = await state(cookie);
    expect(draft?.content.firm.tagline).toBe('<script>alert(1)</script>');
    expect(draft?.content.about.leader.bio[0]).toBe('Daniel <strong>founded</strong> the firm.&lt;script&gt;alert(1)&lt;/script&gt;x');
    expect((await publish(cookie, 1)).status).toBe(200);
    expect((await getPublishedContent(getDb(env.DB))).about.leader.bio[0]).toBe(draft?.content.about.leader.bio[0]);
  });

  it('refuses a document over the size limit with 413 and a clear message', async () => {
    const cookie = await signIn();
    const content = editable();
    // Every field within its own limit, the whole over CONTENT_MAX_BYTES.
    content.faq.items = Array.from({ length: 100 }, (_, i) => ({ id: `q-${i}`, category: 'General Services', question: `Question ${i}?`, answer: 'a'.repeat(2000) }));
    content.privacyPolicy.sections = Array.from({ length: 3 }, (_, i) => ({ id: `s-${i}`, title: `Section ${i}`, paragraphs: Array.from({ length: 10 }, () => 'p'.repeat(3000)) }));
    const res = await saveDraft(cookie, 1, content);
    expect(res.status).toBe(413);
    expect(((await res.json()) as { message: string }).message).toMatch(new RegExp(`^The content is too large: \\d+ KB, at most ${CONTENT_MAX_BYTES / 1024} KB$`));
    expect((await state(cookie)).draft).toBeNull();
  });
});

interface Review {
  live: { version: number };
  basedOn: number;
  revision: number;
  updatedBy: string;
  changes: { path: string; kind: string; before?: unknown; after?: unknown; flag: string | null; savedBy: { by: string; at: string }[] }[];
}

async function review(cookie: string): Promise<Review> {
  const res = await client({ cookie }).api.admin.content.review.$get();
  expect(res.status).toBe(200);
  return (await res.json()) as unknown as Review;
}

describe('review before publishing (issue 48: staff edits cannot ride a Publish unseen)', () => {
  it('lists every change against the live version with who saved it, and flags e-mail, payment and other links', async () => {
    const owner = await signIn();
    const staff = (await accountSignedIn('staffer', 'staff')).cookie;
    expect((await client({ cookie: owner }).api.admin.content.review.$get()).status).toBe(404);

    // The owner changes the tagline; then a staff member, on the same draft, the firm's addresses and links.
    const mine = editable((c) => (c.firm.tagline = 'Trusted since 1990'));
    expect((await saveDraft(owner, 1, mine)).status).toBe(200);
    const theirs = structuredClone(mine);
    theirs.firm.contact.email = 'billing@evil.example';
    theirs.firm.links.payNow = 'https://pay.evil.example/acme';
    theirs.firm.links.clientPortal = 'https://portal.evil.example/';
    theirs.about.story[0] = `${theirs.about.story[0]} <a href="https://evil.example/login">Sign in</a>`;
    theirs.firm.social.push({ name: 'Mastodon', kind: 'social', href: 'https://evil.example/@acme' });
    theirs.prices.individualReturn = 'From $99';
    expect((await saveDraft(staff, 1, theirs)).status).toBe(200);

    const seen = await review(owner);
    expect(seen).toMatchObject({ live: { version: 1 }, basedOn: 1, revision: 2, updatedBy: 'staffer' });
    const byPath = Object.fromEntries(seen.changes.map((c) => [c.path, c]));
    const added = `firm.social.${theirs.firm.social.length - 1}`;
    expect(Object.keys(byPath).sort()).toEqual(
      ['about.story.0', 'firm.contact.email', 'firm.links.clientPortal', 'firm.links.payNow', `${added}.name`, `${added}.kind`, `${added}.href`, 'firm.tagline', 'prices.individualReturn'].sort(),
    );
    expect(byPath['firm.contact.email']).toMatchObject({ kind: 'changed', before: firm.contact.email, after: 'billing@evil.example', flag: 'email', savedBy: [{ by: 'staffer' }] });
    expect(byPath['firm.links.payNow']).toMatchObject({ after: 'https://pay.evil.example/acme', flag: 'payment', savedBy: [{ by: 'staffer' }] });
    expect(byPath['firm.links.clientPortal']).toMatchObject({ flag: 'link', savedBy: [{ by: 'staffer' }] });
    expect(byPath['about.story.0']).toMatchObject({ flag: 'link', savedBy: [{ by: 'staffer' }] });
    // An entry added whole is listed field by field, its link flagged and shown.
    expect(byPath[`${added}.href`]).toMatchObject({ kind: 'added', after: 'https://evil.example/@acme', flag: 'link', savedBy: [{ by: 'staffer' }] });
    expect(byPath[`${added}.name`]).toMatchObject({ kind: 'added', after: 'Mastodon', flag: null });
    expect(byPath['prices.individualReturn']).toMatchObject({ flag: null, savedBy: [{ by: 'staffer' }] });
    // The owner's own change keeps its author: the staff save did not touch it.
    expect(byPath['firm.tagline']).toMatchObject({ after: 'Trusted since 1990', flag: null, savedBy: [{ by: ADMIN.username, at: expect.stringMatching(ISO) }] });
    // Quoted whole, never cut: the review is what goes live.
    expect(byPath['about.story.0'].after).toBe(theirs.about.story[0]);
  });

  it('publishes exactly the revision reviewed: a save since is refused with 409, nothing published', async () => {
    const owner = await signIn();
    const staff = (await accountSignedIn('staffer', 'staff')).cookie;
    expect((await saveDraft(owner, 1, editable((c) => (c.firm.tagline = 'Reviewed')))).status).toBe(200);
    const reviewed = await review(owner);

    // While the owner reads the list, a staff member changes the Pay Now link.
    expect((await saveDraft(staff, 1, editable((c) => ((c.firm.tagline = 'Reviewed'), (c.firm.links.payNow = 'https://pay.evil.example/'))))).status).toBe(200);
    const refused = await publish(owner, reviewed.basedOn, reviewed.revision);
    expect(refused.status).toBe(409);
    const body = (await refused.json()) as unknown as { message: string; draft: { updatedBy: string; revision: number } };
    expect(body.message).toMatch(/^Not published: the draft changed since you reviewed it \(saved by staffer at .*\)\. Review its changes again before publishing\.$/);
    expect(body.draft).toMatchObject({ updatedBy: 'staffer', revision: reviewed.revision + 1 });
    expect(await env.DB.prepare('select count(*) as n from content_versions').first('n')).toBe(0);
    expect((await getPublishedContent(getDb(env.DB))).firm.links.payNow).toBe(firm.links.payNow);

    // Reviewed again, it shows the new link (flagged) and publishes that revision.
    const again = await review(owner);
    expect(again.changes.find((c) => c.path === 'firm.links.payNow')).toMatchObject({ flag: 'payment', savedBy: [{ by: 'staffer' }] });
    const ok = await publish(owner, again.basedOn, again.revision);
    expect(ok.status).toBe(200);
    expect((await getPublishedContent(getDb(env.DB))).firm.links.payNow).toBe('https://pay.evil.example/');
    // Staff may read the review but never publish.
    expect((await publish(staff, 2, 1)).status).toBe(403);
    // A revision is required.
    expect((await call('/api/admin/content/publish', { cookie: owner, body: { basedOn: 2 } })).status).toBe(400);
  });
});
