import { env } from 'cloudflare:test';
import { describe, expect, it, vi } from 'vitest';
import { firm } from '#core/content/firm';
import { addCalendarDays, firmToday, zonedInstant } from '#core/firm-time';
import { accountSignedIn } from '../harness/worker/admin-accounts-helpers';
import { call, client, cronTick, okJson, signIn } from '../harness/worker/helpers';
import { fakeMailChannels, mailChannelsEnv, type RecordedRequest } from '../harness/worker/mailchannels-fake';

const MINUTE = 60_000;

async function addSubscribers(n: number) {
  await env.DB.batch(
    Array.from({ length: n }, (_, i) => env.DB.prepare("INSERT INTO newsletter_subscriptions (email, active) VALUES (?, 'true')").bind(`s${i}@example.com`)),
  );
}

async function newsletters() {
  return (await env.DB.prepare('SELECT id, subject, trigger, status, recipient_count, draft_id FROM sent_newsletters ORDER BY id').all<Record<string, unknown>>()).results;
}

const recipients = (requests: RecordedRequest[]) => requests.map((r) => r.body.personalizations[0].to[0].email).sort();

/** Tomorrow in the firm's zone, at the given wall-clock time, as the schedule form sends it, and the instant it means. */
function tomorrowAt(time: string) {
  const date = addCalendarDays(firmToday(firm.timeZone), 1);
  const [h, m] = time.split(':').map(Number);
  return { date, time, at: zonedInstant(date, h * 60 + m, firm.timeZone).getTime() };
}

async function newDraft(cookie: string, subject = 'Year-end tax tips', content = '<h2>Before December 31</h2><p>Max out your <strong>401(k)</strong>.</p>') {
  const res = await client({ cookie }).api.admin.newsletter.drafts.$post({ json: { subject, content } });
  expect(res.status).toBe(201);
  return (await okJson(res)).draft;
}

/** A new draft, scheduled for tomorrow at `time` (firm time). */
async function scheduledDraft(cookie: string, time: string) {
  const draft = await newDraft(cookie);
  const slot = tomorrowAt(time);
  await okJson(await client({ cookie }).api.admin.newsletter.drafts[':id'].schedule.$post({ param: { id: String(draft.id) }, json: { date: slot.date, time: slot.time } }));
  return { draft, slot };
}

describe('newsletter drafts (docs/product.md §5.9)', () => {
  it('are saved sanitised, listed, read back and edited; bad input is a 400 with field messages', async () => {
    const cookie = await signIn();
    const api = client({ cookie }).api.admin.newsletter;
    const draft = await newDraft(cookie, 'Spring', '<p onclick="x()">Hello <script>alert(1)</script>world</p>');
    expect(draft).toMatchObject({ subject: 'Spring', content: '<p>Hello world</p>', status: 'draft', scheduledAt: null });

    const saved = await okJson(await api.drafts[':id'].$put({ param: { id: String(draft.id) }, json: { subject: 'Spring news', content: '<p>Edited</p>' } }));
    expect(saved.draft).toMatchObject({ id: draft.id, subject: 'Spring news', content: '<p>Edited</p>' });
    expect(await okJson(await api.drafts[':id'].$get({ param: { id: String(draft.id) } }))).toMatchObject({ subject: 'Spring news' });
    expect((await okJson(await api.drafts.$get())).map((d) => d.subject)).toEqual(['Spring news']);

    const bad = await call('/api/admin/newsletter/drafts', { cookie, body: { subject: '', content: '' } });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ fields: { subject: ['Please fill in both subject and content'] } });
    expect((await api.drafts[':id'].$get({ param: { id: '999' } })).status).toBe(404);
    expect((await call('/api/admin/newsletter/drafts')).status).toBe(401);
  });

  it('renders the live preview in the firm frame, sanitised', async () => {
    const cookie = await signIn();
    const res = await client({ cookie }).api.admin.newsletter.render.$post({ json: { subject: 'Hi', content: '<p>Body<img src=x onerror=alert(1)></p>' } });
    const { html } = await okJson(res);
    expect(html).toContain('<p>Body');
    expect(html).toContain(firm.name);
    expect(html).toContain('/newsletter/unsubscribe?token=test-send');
    expect(html).not.toContain('onerror');
  });

  it('schedules for a minute in the firm zone and refuses past times, empty drafts and unknown ids', async () => {
    const cookie = await signIn();
    const api = client({ cookie }).api.admin.newsletter.drafts[':id'];
    const draft = await newDraft(cookie);
    const slot = tomorrowAt('09:30');
    const res = await api.schedule.$post({ param: { id: String(draft.id) }, json: { date: slot.date, time: slot.time } });
    const body = await okJson(res);
    expect(body.draft).toMatchObject({ status: 'scheduled', scheduledAt: new Date(slot.at).toISOString() });
    expect(body.message).toMatch(/^Scheduled for .*9:30\sAM/);

    const past = await api.schedule.$post({ param: { id: String(draft.id) }, json: { date: addCalendarDays(firmToday(firm.timeZone), -1), time: '09:30' } });
    expect(past.status).toBe(400);
    expect(await past.json()).toMatchObject({ fields: { time: ['Please choose a time in the future'] } });
    const badTime = await call(`/api/admin/newsletter/drafts/${draft.id}/schedule`, { cookie, body: { date: '2026-02-30', time: '25:00' } });
    expect(badTime.status).toBe(400);
    expect(Object.keys(((await badTime.json()) as { fields: object }).fields).sort()).toEqual(['date', 'time']);

    const empty = await newDraft(cookie, 'Empty', '<p> </p>');
    const refused = await api.schedule.$post({ param: { id: String(empty.id) }, json: { date: slot.date, time: slot.time } });
    expect(refused.status).toBe(400);
    expect((await api.schedule.$post({ param: { id: '999' }, json: { date: slot.date, time: slot.time } })).status).toBe(404);
    // A scheduled draft cannot be emptied, nor deleted before its schedule is cancelled.
    expect((await api.$put({ param: { id: String(draft.id) }, json: { subject: 'x', content: '' } })).status).toBe(400);
    expect((await api.$delete({ param: { id: String(draft.id) } })).status).toBe(409);
  });

  it('is sent by the cron at its minute, exactly once, however the ticks repeat or overlap', async () => {
    await addSubscribers(5);
    const cookie = await signIn();
    const { draft, slot } = await scheduledDraft(cookie, '09:30');
    const requests = fakeMailChannels();
    const testEnv = mailChannelsEnv();

    await cronTick(slot.at - MINUTE, testEnv); // 9:29: not yet
    expect(await newsletters()).toEqual([]);
    await Promise.all([cronTick(slot.at, testEnv), cronTick(slot.at, testEnv)]); // the minute, fired twice at once
    await cronTick(slot.at, testEnv); // and once more
    await Promise.all([cronTick(slot.at + MINUTE, testEnv), cronTick(slot.at + 2 * MINUTE, testEnv)]);

    expect(await newsletters()).toEqual([{ id: 1, subject: 'Year-end tax tips', trigger: 'scheduled', status: 'sent', recipient_count: 5, draft_id: draft.id }]);
    expect(recipients(requests)).toEqual(['s0@example.com', 's1@example.com', 's2@example.com', 's3@example.com', 's4@example.com']);
    const after = await okJson(await client({ cookie }).api.admin.newsletter.drafts[':id'].$get({ param: { id: String(draft.id) } }));
    expect(after).toMatchObject({ status: 'sent', newsletterId: 1 });
    // Gone out: no more changes.
    const edit = await client({ cookie }).api.admin.newsletter.drafts[':id'].$put({ param: { id: String(draft.id) }, json: { subject: 'x', content: '<p>y</p>' } });
    expect(edit.status).toBe(409);
  });

  it('rescheduled goes at the new minute; cancelled is never sent', async () => {
    await addSubscribers(2);
    const cookie = await signIn();
    const api = client({ cookie }).api.admin.newsletter.drafts[':id'];
    const moved = await newDraft(cookie, 'Moved');
    const cancelled = await newDraft(cookie, 'Cancelled');
    const first = tomorrowAt('10:00');
    const later = tomorrowAt('11:15');
    await okJson(await api.schedule.$post({ param: { id: String(moved.id) }, json: { date: first.date, time: first.time } }));
    await okJson(await api.schedule.$post({ param: { id: String(moved.id) }, json: { date: later.date, time: later.time } }));
    await okJson(await api.schedule.$post({ param: { id: String(cancelled.id) }, json: { date: first.date, time: first.time } }));
    const cancel = await okJson(await api.cancel.$post({ param: { id: String(cancelled.id) } }));
    expect(cancel.draft.status).toBe('cancelled');
    expect((await api.cancel.$post({ param: { id: String(cancelled.id) } })).status).toBe(409);

    const requests = fakeMailChannels();
    const testEnv = mailChannelsEnv();
    for (const at of [first.at, first.at + MINUTE, later.at - MINUTE]) await cronTick(at, testEnv);
    expect(await newsletters()).toEqual([]);
    await cronTick(later.at, testEnv);
    await cronTick(later.at + 60 * MINUTE, testEnv);
    expect((await newsletters()).map((n) => n.subject)).toEqual(['Moved']);
    expect(requests).toHaveLength(2);
    const list = await okJson(await client({ cookie }).api.admin.newsletter.drafts.$get());
    expect(list.map((d) => [d.subject, d.status])).toEqual(
      expect.arrayContaining([
        ['Moved', 'sent'],
        ['Cancelled', 'cancelled'],
      ]),
    );
  });

  it('a claim whose tick died before recording the newsletter is taken over after the lease, and sent once', async () => {
    await addSubscribers(3);
    const cookie = await signIn();
    const { draft, slot } = await scheduledDraft(cookie, '08:00');
    // As if a tick claimed it at its minute and died before its next statement.
    await env.DB.prepare("UPDATE newsletter_drafts SET status = 'sending', claimed_at = ? WHERE id = ?").bind(slot.at, draft.id).run();
    const requests = fakeMailChannels();
    const testEnv = mailChannelsEnv();
    await cronTick(slot.at + MINUTE, testEnv); // within the lease: the claim may still be alive
    expect(await newsletters()).toEqual([]);
    await cronTick(slot.at + 3 * MINUTE, testEnv);
    await cronTick(slot.at + 4 * MINUTE, testEnv);
    expect((await newsletters()).map((n) => [n.draft_id, n.recipient_count])).toEqual([[draft.id, 3]]);
    expect(requests).toHaveLength(3);
  });

  it('with no active subscriber at its minute, is cancelled with the reason instead of sent', async () => {
    const cookie = await signIn();
    const { draft, slot } = await scheduledDraft(cookie, '07:45');
    await cronTick(slot.at);
    expect(await newsletters()).toEqual([]);
    const after = await okJson(await client({ cookie }).api.admin.newsletter.drafts[':id'].$get({ param: { id: String(draft.id) } }));
    expect(after).toMatchObject({ status: 'cancelled', error: 'There were no active subscribers at the scheduled time: not sent' });
  });

  it('takes a draft as large as a send (1 MB) on every draft path, not only the exact ones', async () => {
    const cookie = await signIn();
    const draft = await newDraft(cookie);
    const content = '<p>A long issue with many paragraphs of text.</p>'.repeat(4000); // ~190 KB, over the 64 KB default
    const res = await client({ cookie }).api.admin.newsletter.drafts[':id'].$put({ param: { id: String(draft.id) }, json: { subject: 'Long', content } });
    expect(res.status).toBe(200);
    const tooLarge = await call(`/api/admin/newsletter/drafts/${draft.id}`, { cookie, method: 'PUT', body: { subject: 'Too long', content: 'x'.repeat(1024 * 1024 + 1) } });
    expect(tooLarge.status).toBe(413);
  });

  it('a cron tick sending a batch stays within the free plan\'s 50 subrequests, the draft check included', async () => {
    await addSubscribers(100);
    const cookie = await signIn();
    const requests = fakeMailChannels();
    const testEnv = mailChannelsEnv(); // the default batch of 40
    const sent = await client({ cookie, env: testEnv }).api.admin['send-newsletter'].$post({ json: { subject: 'Budget', content: '<p>Hello</p>' } });
    expect(sent.status).toBe(200);
    const lines: string[] = [];
    const spy = vi.spyOn(console, 'log').mockImplementation((line: unknown) => void lines.push(String(line)));
    try {
      await cronTick(Date.now(), testEnv);
    } finally {
      spy.mockRestore();
    }
    const batch = lines.find((l) => l.startsWith('[newsletter-batch] '));
    const stats = JSON.parse(batch!.slice('[newsletter-batch] '.length)) as { claimed: number; subrequests: number };
    expect(stats.claimed).toBeGreaterThan(30);
    expect(stats.subrequests).toBeLessThanOrEqual(50);
    expect(requests.length).toBeGreaterThan(30);
  });

  it('a scheduled issue is changed only by an account that may send; the cron sends what was scheduled (issue 48)', async () => {
    await addSubscribers(2);
    const owner = await signIn();
    const staff = (await accountSignedIn('staffer', 'staff')).cookie;
    const sender = (await accountSignedIn('sender', 'staff', { canSendNewsletters: true })).cookie;
    const { draft, slot } = await scheduledDraft(owner, '09:30');
    const id = String(draft.id);
    const phishing = { subject: 'Urgent: verify your account', content: '<p><a href="https://evil.example/login">Log in</a></p>' };

    // Staff may not rewrite it: 403 saying why, and nothing changed.
    const refused = await client({ cookie: staff }).api.admin.newsletter.drafts[':id'].$put({ param: { id }, json: phishing });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { message: string }).message).toMatch(/scheduled.*permission to send newsletters/);
    expect(await okJson(await client({ cookie: owner }).api.admin.newsletter.drafts[':id'].$get({ param: { id } }))).toMatchObject({
      subject: 'Year-end tax tips',
      status: 'scheduled',
    });

    // A staff member the owner lets send may, like the owner.
    const edited = await client({ cookie: sender }).api.admin.newsletter.drafts[':id'].$put({ param: { id }, json: { subject: 'Year-end tax tips (2)', content: draft.content } });
    expect(edited.status).toBe(200);

    const requests = fakeMailChannels();
    await cronTick(slot.at, mailChannelsEnv());
    expect((await newsletters()).map((n) => n.subject)).toEqual(['Year-end tax tips (2)']);
    expect(requests.map((r) => r.body.subject)).not.toContain(phishing.subject);

    // Staff still write unscheduled drafts (and cancelled ones) as before.
    const own = await newDraft(staff, 'Staff draft');
    expect((await client({ cookie: staff }).api.admin.newsletter.drafts[':id'].$put({ param: { id: String(own.id) }, json: phishing })).status).toBe(200);
  });

  it('deletes a draft that never went out', async () => {
    const cookie = await signIn();
    const draft = await newDraft(cookie);
    const api = client({ cookie }).api.admin.newsletter.drafts[':id'];
    expect((await api.$delete({ param: { id: String(draft.id) } })).status).toBe(200);
    expect((await api.$get({ param: { id: String(draft.id) } })).status).toBe(404);
  });
});
