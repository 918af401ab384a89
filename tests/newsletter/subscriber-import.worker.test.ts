import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { IMPORT_CHUNK_ROWS, IMPORT_MAX_ROWS, IMPORT_TOO_MANY_ROWS, type ImportRow } from '#core/schemas/subscriber-import';
import { readSubscriberCsv } from '#core/subscriber-import-csv';
import { firm } from '#core/content/firm';
import { zonedInstant } from '#core/firm-time';
import { getDb } from '../../worker/db/client';
import { stalePendingPurge } from '../../worker/services/newsletter/list-hygiene';
import { runImport } from '../../worker/services/newsletter/subscriber-import';
import { sendImportConfirmations } from '../../worker/services/newsletter/confirmations';
import { client, okJson, signIn } from '../harness/worker/helpers';

// The subscriber CSV import (docs/product.md §5.9): dry run, consent, batched and resumable runs.

type Row = Record<string, unknown>;
const subscriber = (email: string) => env.DB.prepare('SELECT * FROM newsletter_subscriptions WHERE email = ?').bind(email).first<Row>();

async function insertSubscriber(email: string, columns: Record<string, string | number | null> = {}) {
  const values = { email, active: 'false', ...columns };
  const names = Object.keys(values);
  await env.DB.prepare(`INSERT INTO newsletter_subscriptions (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})`)
    .bind(...Object.values(values))
    .run();
}

/** The firm's list before the import: one of each state an address can be in. */
async function seedList() {
  await insertSubscriber('active@example.com', { active: 'true', confirmed_at: 1 });
  await insertSubscriber('pending@example.com');
  await insertSubscriber('bounced@example.com', { suppressed_at: 1, suppression_reason: 'bounced', suppression_detail: 'hard-bounced: 550' });
  await insertSubscriber('complained@example.com', { suppressed_at: 1, suppression_reason: 'complained', suppression_detail: 'complained' });
  await insertSubscriber('left@example.com', { unsubscribed_at: 1, confirmed_at: 1 });
}

// A Mailchimp export: its own header names and column order, quoted fields.
const MAILCHIMP_CSV = [
  '"Email Address","First Name","Last Name","MEMBER_RATING","OPTIN_TIME","CONFIRM_TIME","SOURCE"',
  '"new.one@example.com","Ada","Lovelace",2,"2024-03-01 10:00:00","2024-03-01 10:05:00","Website form"', // line 2: new
  '"ACTIVE@example.com","Al","Active",1,,,', // line 3: already subscribed (case differs)
  '"bounced@example.com","Bo","Unced",1,,,', // line 4: suppressed (bounced)
  '"complained@example.com","Co","Mplained",1,,,', // line 5: suppressed (complained)
  '"left@example.com","Le","Ft",1,,,', // line 6: suppressed (unsubscribed)
  '"not-an-address","No","Body",1,,,', // line 7: invalid
  '"new.one@example.com","Ada","Again",1,,,', // line 8: duplicate of line 2
  '"pending@example.com","Pe","Nding",1,,,', // line 9: already on the list, awaiting confirmation
  '"new.two@example.com","Bob, Jr.","Smith",1,"not a date",,', // line 10: invalid consent date
  '"new.three@example.com","Cy",,1,,,"Trade show"', // line 11: new
].join('\r\n');

async function stageCsv(cookie: string, csv: string, fileName = 'members.csv') {
  const parsed = readSubscriberCsv(csv);
  if (!parsed.ok) throw new Error(parsed.message);
  const api = client({ cookie }).api.admin['subscriber-imports'];
  const { id } = await okJson(await api.$post({ json: { fileName } }));
  for (let i = 0; i < parsed.rows.length; i += IMPORT_CHUNK_ROWS) {
    await okJson(await api.rows.$post({ json: { importId: id, rows: parsed.rows.slice(i, i + IMPORT_CHUNK_ROWS) } }));
  }
  return id;
}

async function runToEnd(cookie: string, id: number) {
  const api = client({ cookie }).api.admin['subscriber-imports'][':id'];
  let calls = 0;
  for (;;) {
    calls++;
    const result = await okJson(await api.run.$post({ param: { id: String(id) } }));
    if (result.status === 'done') return { ...result, calls };
    if (calls > 100) throw new Error('import does not finish');
  }
}

/** Stages the CSV, confirms the import with this consent and runs it to the end: the import's id. */
async function importCsv(cookie: string, csv: string, consent: 'given' | 'confirm') {
  const id = await stageCsv(cookie, csv);
  await okJson(await client({ cookie }).api.admin['subscriber-imports'][':id'].confirm.$post({ param: { id: String(id) }, json: { consent, consentConfirmed: true } }));
  await runToEnd(cookie, id);
  return id;
}

describe('subscriber import: dry run', () => {
  it('puts every row of a Mailchimp export in one category: new, already subscribed, suppressed, duplicates, invalid (line and why)', async () => {
    await seedList();
    const cookie = await signIn();
    const id = await stageCsv(cookie, MAILCHIMP_CSV);
    const dryRun = await okJson(await client({ cookie }).api.admin['subscriber-imports'][':id'].$get({ param: { id: String(id) } }));
    expect(dryRun.rows).toBe(10);
    expect(dryRun.counts).toEqual({ new: 2, alreadySubscribed: 2, suppressed: 3, duplicates: 1, invalid: 2 });
    expect(dryRun.invalid).toEqual([
      { line: 7, email: 'not-an-address', problem: 'Not a valid e-mail address' },
      { line: 10, email: 'new.two@example.com', problem: 'Opt-in date "not a date" is not a date: write it as 2024-03-01 or 3/1/2024' },
    ]);
    expect(dryRun.duplicates).toEqual([{ line: 8, email: 'new.one@example.com' }]);
    expect(dryRun.suppressed).toEqual([
      { line: 4, email: 'bounced@example.com', reason: 'bounced' },
      { line: 5, email: 'complained@example.com', reason: 'complained' },
      { line: 6, email: 'left@example.com', reason: 'unsubscribed' },
    ]);
    expect(dryRun).toMatchObject({ status: 'staged', createdBy: 'admin', fileName: 'members.csv', consent: null });
    // A dry run changes nobody.
    expect(await subscriber('new.one@example.com')).toBeNull();
  });

  it('reads Constant Contact and listmonk exports, any column order, and skips who the export marks as gone', () => {
    const constantContact = readSubscriberCsv(
      'First name,Last name,Email address,Email permission status,Source Name,Created At\n' +
        'Dee,Cee,dee@example.com,Implicit,Signup form,2023-11-02\n' +
        'Gone,Away,gone@example.com,Unsubscribed,,\n',
    );
    expect(constantContact.ok && constantContact.rows).toEqual([
      { line: 2, email: 'dee@example.com', name: 'Dee Cee', consentDate: '2023-11-02', source: 'Signup form', status: 'Implicit' },
      { line: 3, email: 'gone@example.com', name: 'Gone Away', status: 'Unsubscribed' },
    ]);
    // listmonk: a quoted JSON attributes cell with commas, doubled quotes and a line break inside.
    const listmonk = readSubscriberCsv(
      'uuid,email,name,attributes,status,created_at,updated_at\n' +
        'a1,lee@example.com,Lee,"{""city"": ""Pittsburgh,\nPA""}",enabled,2022-01-05 08:00:00,2022-01-05\n' +
        'a2,bl@example.com,Block,{},blocklisted,2022-01-06 08:00:00,2022-01-06\n',
    );
    expect(listmonk.ok && listmonk.rows).toEqual([
      { line: 2, email: 'lee@example.com', name: 'Lee', consentDate: '2022-01-05 08:00:00', status: 'enabled' },
      { line: 4, email: 'bl@example.com', name: 'Block', consentDate: '2022-01-06 08:00:00', status: 'blocklisted' },
    ]);
    expect(readSubscriberCsv('Name,Phone\nAl,1\n')).toEqual({ ok: false, message: 'No Email column found in the header row' });
  });

  it('lists a row whose export status says it left that list as invalid', async () => {
    const cookie = await signIn();
    const id = await stageCsv(cookie, 'Email address,Email permission status\nok@example.com,Explicit\ngone@example.com,Unsubscribed\n');
    const dryRun = await okJson(await client({ cookie }).api.admin['subscriber-imports'][':id'].$get({ param: { id: String(id) } }));
    expect(dryRun.counts).toMatchObject({ new: 1, invalid: 1 });
    expect(dryRun.invalid).toEqual([{ line: 3, email: 'gone@example.com', problem: 'The export marks this address "Unsubscribed"' }]);
  });
});

describe('subscriber import: confirm and run', () => {
  it('needs the admin to confirm consent, records how, who and when, and never re-activates a suppressed address', async () => {
    await seedList();
    const cookie = await signIn();
    const id = await stageCsv(cookie, MAILCHIMP_CSV);
    const api = client({ cookie }).api.admin['subscriber-imports'][':id'];
    // Not confirmed yet: nothing runs.
    expect((await api.run.$post({ param: { id: String(id) } })).status).toBe(409);
    const refused = await api.confirm.$post({ param: { id: String(id) }, json: { consent: 'given', consentConfirmed: false as true } });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ message: 'Please confirm that these people gave their consent' });

    const confirmed = await okJson(await api.confirm.$post({ param: { id: String(id) }, json: { consent: 'given', consentConfirmed: true } }));
    expect(confirmed).toMatchObject({ status: 'importing', consent: 'given', confirmedBy: 'admin' });
    expect(Date.now() - new Date(confirmed.confirmedAt!).getTime()).toBeLessThan(60_000);
    // The same confirmation again is harmless; another choice is refused; the rows are closed.
    expect((await api.confirm.$post({ param: { id: String(id) }, json: { consent: 'given', consentConfirmed: true } })).status).toBe(200);
    expect((await api.confirm.$post({ param: { id: String(id) }, json: { consent: 'confirm', consentConfirmed: true } })).status).toBe(409);
    const late = await client({ cookie }).api.admin['subscriber-imports'].rows.$post({ json: { importId: id, rows: [{ line: 99, email: 'late@example.com' }] } });
    expect(late.status).toBe(409);

    const done = await runToEnd(cookie, id);
    expect(done).toMatchObject({ status: 'done', importedCount: 2 });
    expect(await subscriber('new.one@example.com')).toMatchObject({
      active: 'true',
      name: 'Ada Lovelace',
      import_id: id,
      consent_source: 'Website form',
      consent_at: Date.parse('2024-03-01T10:00:00'),
    });
    expect(await subscriber('new.three@example.com')).toMatchObject({ active: 'true', consent_source: 'Trade show', import_id: id });
    // Suppressed, unsubscribed and pending addresses are exactly as they were.
    expect(await subscriber('bounced@example.com')).toMatchObject({ active: 'false', suppression_reason: 'bounced', import_id: null });
    expect(await subscriber('complained@example.com')).toMatchObject({ active: 'false', suppression_reason: 'complained', import_id: null });
    expect(await subscriber('left@example.com')).toMatchObject({ active: 'false', unsubscribed_at: 1, import_id: null });
    expect(await subscriber('pending@example.com')).toMatchObject({ active: 'false', import_id: null });
    expect(await subscriber('not-an-address')).toBeNull();
    // Consent already given: no confirmation e-mail to anyone.
    const mails = await env.DB.prepare("SELECT count(*) AS n FROM email_log WHERE kind = 'newsletter-confirmation'").first<{ n: number }>();
    expect(mails?.n).toBe(0);
    // The dry run still reads the same after the import.
    const after = await okJson(await api.$get({ param: { id: String(id) } }));
    expect(after.counts).toEqual({ new: 2, alreadySubscribed: 2, suppressed: 3, duplicates: 1, invalid: 2 });
  });

  it('imports 10,000 rows in runs of 500, with no duplicate when chunks and runs are retried or overlap', async () => {
    const cookie = await signIn();
    const lines = ['Email,Name'];
    for (let i = 0; i < 10_000; i++) lines.push(`Person${String(i).padStart(5, '0')}@Example.com,Person ${i}`);
    const csv = lines.join('\n');
    const id = await stageCsv(cookie, csv, 'big.csv');
    // A chunk sent again (a retried request) is stored once.
    const parsed = readSubscriberCsv(csv);
    const rows = (parsed.ok ? parsed.rows : []) as ImportRow[];
    const again = await okJson(await client({ cookie }).api.admin['subscriber-imports'].rows.$post({ json: { importId: id, rows: rows.slice(500, 1000) } }));
    expect(again.staged).toBe(10_000);
    const api = client({ cookie }).api.admin['subscriber-imports'][':id'];
    expect((await okJson(await api.$get({ param: { id: String(id) } }))).counts).toMatchObject({ new: 10_000, invalid: 0, duplicates: 0 });
    await okJson(await api.confirm.$post({ param: { id: String(id) }, json: { consent: 'given', consentConfirmed: true } }));

    // Two runs at once (a second tab, a retry while the first is still going) take different windows.
    const db = getDb(env.DB);
    await Promise.all([runImport(env.DB, db, id), runImport(env.DB, db, id)]);
    const done = await runToEnd(cookie, id);
    expect(done).toMatchObject({ status: 'done', importedCount: 10_000 });
    expect(done.calls).toBeLessThanOrEqual(19);
    // Runs after the end change nothing.
    expect(await runImport(env.DB, db, id)).toMatchObject({ status: 'done', importedCount: 10_000 });
    const totals = await env.DB.prepare("SELECT count(*) AS n, count(DISTINCT email) AS d, sum(active = 'true') AS a FROM newsletter_subscriptions").first<Row>();
    expect(totals).toEqual({ n: 10_000, d: 10_000, a: 10_000 });
    expect(await subscriber('person09999@example.com')).toMatchObject({ name: 'Person 9999', consent_source: 'CSV import big.csv' });
  });

  it('without consent given: pending rows, each mailed its double opt-in by the cron under the daily cap, and not purged before', async () => {
    const cookie = await signIn();
    await importCsv(cookie, 'Email\na@example.com\nb@example.com\nc@example.com\nd@example.com\n', 'confirm');
    expect(await subscriber('a@example.com')).toMatchObject({ active: 'false', confirmed_at: null, confirmation_sent_at: null });

    // Long after the import, still waiting for its e-mail: not purged as a stale sign-up.
    const db = getDb(env.DB);
    expect(await stalePendingPurge(db, new Date(Date.now() + 60 * 24 * 60 * 60 * 1000))).toEqual([]);

    const capped = { ...env, NEWSLETTER_CONFIRMATION_DAILY_CAP: '3' };
    const first = await sendImportConfirmations(capped, db, new Date(), 5);
    expect(first).toMatchObject({ due: 4, sent: 3 });
    const mailed = await env.DB.prepare("SELECT \"to\" FROM email_log WHERE kind = 'newsletter-confirmation' ORDER BY \"to\"").all<{ to: string }>();
    expect(mailed.results.map((r) => r.to)).toEqual(['a@example.com', 'b@example.com', 'c@example.com']);
    // The cap is reached: the fourth waits for another day, nobody is mailed twice.
    expect(await sendImportConfirmations(capped, db, new Date(), 5)).toMatchObject({ due: 1, sent: 0 });
    const again = await env.DB.prepare("SELECT count(*) AS n FROM email_log WHERE kind = 'newsletter-confirmation'").first<{ n: number }>();
    expect(again?.n).toBe(3);
  });

  // Issue 49: an imported person was mailed "If you did not sign up...": they signed up nowhere.
  it("mails an imported person that the firm added them, with an unsubscribe link; a sign-up's own e-mail is unchanged", async () => {
    const cookie = await signIn();
    await importCsv(cookie, 'Email\nadded@example.com\n', 'confirm');
    expect(await sendImportConfirmations(env, getDb(env.DB), new Date(), 5)).toMatchObject({ sent: 1 });
    const mail = await env.DB.prepare("SELECT subject, text_body, html_body, kind FROM email_log WHERE \"to\" = 'added@example.com'").first<Row>();
    expect(mail).toMatchObject({ kind: 'newsletter-confirmation', subject: `${firm.name} added you to its newsletter list: please confirm` });
    const text = String(mail!.text_body);
    expect(text).toContain(`${firm.name} added you to its newsletter list.`);
    expect(text).toContain('/newsletter/confirm?token=');
    expect(text).toContain('If you do not want these e-mails, unsubscribe here and we will not add you again:');
    expect(text).toContain('/newsletter/unsubscribe?token=');
    expect(String(mail!.html_body)).toContain('unsubscribe here</a>');
    expect(`${text}${mail!.html_body}`).not.toMatch(/did not sign up/);

    // The owner's "Resend confirmation" of that person sends the same words.
    const id = (await subscriber('added@example.com'))!.id as number;
    await env.DB.prepare('UPDATE newsletter_subscriptions SET confirmation_sent_at = 1 WHERE id = ?').bind(id).run();
    await okJson(await client({ cookie }).api.admin.subscribers[':id']['resend-confirmation'].$post({ param: { id: String(id) } }));
    const resent = await env.DB.prepare("SELECT text_body FROM email_log WHERE \"to\" = 'added@example.com' ORDER BY id DESC").first<Row>();
    expect(String(resent!.text_body)).toContain(`${firm.name} added you to its newsletter list.`);

    // Someone who signs up on the site still reads the sign-up's words.
    expect((await client().api.newsletter.subscribe.$post({ json: { email: 'self@example.com' } })).status).toBe(200);
    let own: Row | null = null;
    for (let i = 0; i < 50 && !own; i++) {
      own = await env.DB.prepare("SELECT text_body FROM email_log WHERE \"to\" = 'self@example.com'").first<Row>();
      if (!own) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(String(own!.text_body)).toContain('If you did not sign up');
    expect(String(own!.text_body)).not.toContain('added you');
  });

  // Issue 49: imported subscribers showed the day of the import as their Subscription Date.
  it("keeps the file's opt-in date as the Subscription Date (ISO and US dates), and refuses impossible and future dates by line", async () => {
    const cookie = await signIn();
    const nextYear = new Date().getUTCFullYear() + 1;
    const csv = [
      'Email,Name,Subscription Date',
      'iso@example.com,Iso,2021-06-15', // line 2
      'us@example.com,Us,6/15/2021', // line 3
      'ustime@example.com,Us Time,6/15/2021 2:05 PM', // line 4
      'utc@example.com,Utc,2021-06-15 10:00:00', // line 5: Mailchimp's OPTIN_TIME, in UTC
      'nodate@example.com,No Date,', // line 6: none: the day of the import
      'feb30@example.com,Feb,2/30/2024', // line 7
      'month13@example.com,Month,2024-13-01', // line 8
      `future@example.com,Future,1/1/${nextYear}`, // line 9
      'words@example.com,Words,"Jun 15, 2021"', // line 10: a written month
    ].join('\n');
    const id = await stageCsv(cookie, csv);
    const api = client({ cookie }).api.admin['subscriber-imports'][':id'];
    const dryRun = await okJson(await api.$get({ param: { id: String(id) } }));
    expect(dryRun.invalid).toEqual([
      { line: 7, email: 'feb30@example.com', problem: 'Opt-in date "2/30/2024" is not a real date' },
      { line: 8, email: 'month13@example.com', problem: 'Opt-in date "2024-13-01" is not a real date' },
      { line: 9, email: 'future@example.com', problem: `Opt-in date "1/1/${nextYear}" is in the future` },
    ]);
    const before = Date.now();
    await okJson(await api.confirm.$post({ param: { id: String(id) }, json: { consent: 'given', consentConfirmed: true } }));
    await runToEnd(cookie, id);
    const dateOf = async (email: string) => (await subscriber(email))!.subscription_date as number;
    // A date alone is that day at the firm, so the back office shows the file's day.
    const firmMidnight = zonedInstant('2021-06-15', 0, firm.timeZone).getTime();
    expect(await dateOf('iso@example.com')).toBe(firmMidnight);
    expect(await dateOf('us@example.com')).toBe(firmMidnight);
    expect(await dateOf('ustime@example.com')).toBe(zonedInstant('2021-06-15', 14 * 60 + 5, firm.timeZone).getTime());
    expect(await dateOf('utc@example.com')).toBe(Date.UTC(2021, 5, 15, 10));
    expect(await dateOf('words@example.com')).toBe(Date.UTC(2021, 5, 15));
    expect(await dateOf('nodate@example.com')).toBeGreaterThanOrEqual(before);
    expect(await subscriber('iso@example.com')).toMatchObject({ consent_at: firmMidnight, active: 'true' });
    expect(await subscriber('feb30@example.com')).toBeNull();
    expect(await subscriber('future@example.com')).toBeNull();
  });

  it("erasing an imported subscriber takes their address and name out of the import's rows too", async () => {
    const cookie = await signIn();
    const id = await importCsv(cookie, 'Email,Name\nerase.me@example.com,Eve Rased\nkeep.me@example.com,Kim\n', 'given');
    const erased = await subscriber('erase.me@example.com');
    await okJson(await client({ cookie }).api.admin.subscribers[':id'].$delete({ param: { id: String(erased!.id) } }));
    const rows = await env.DB.prepare('SELECT email, name FROM subscriber_import_rows WHERE import_id = ? ORDER BY line').bind(id).all<Row>();
    expect(rows.results).toEqual([
      { email: '(erased)', name: null },
      { email: 'keep.me@example.com', name: 'Kim' },
    ]);
  });

  it('answers 404 for an unknown import and 400 for a chunk over 500 rows', async () => {
    const cookie = await signIn();
    const api = client({ cookie }).api.admin['subscriber-imports'];
    expect((await api[':id'].$get({ param: { id: '999' } })).status).toBe(404);
    expect((await api.rows.$post({ json: { importId: 999, rows: [{ line: 2, email: 'x@example.com' }] } })).status).toBe(404);
    const tooMany = Array.from({ length: 501 }, (_, i) => ({ line: i + 2, email: `x${i}@example.com` }));
    const res = await api.rows.$post({ json: { importId: 1, rows: tooMany } });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ message: 'At most 500 rows per request' });
    expect((await client().api.admin['subscriber-imports'].$post({ json: { fileName: 'x.csv' } })).status).toBe(401);
  });
});

describe('the import is capped, and its dry run computed once', () => {
  const call = (cookie: string) => client({ cookie }).api.admin['subscriber-imports'];
  const rowsFrom = (first: number, n: number): ImportRow[] => Array.from({ length: n }, (_, i) => ({ line: first + i, email: `person${first + i}@example.com` }));
  const storedRows = async (id: number) => (await env.DB.prepare('SELECT count(*) AS n FROM subscriber_import_rows WHERE import_id = ?').bind(id).first<{ n: number }>())!.n;

  it(`refuses rows past ${IMPORT_MAX_ROWS.toLocaleString('en-US')} with a 413 and a clear message, storing none of the chunk; a chunk sent again still counts once`, async () => {
    const cookie = await signIn();
    const { id } = await okJson(await call(cookie).$post({ json: { fileName: 'huge.csv' } }));
    // All but 200 of the cap, written straight to D1 (staging them through the API takes 100 requests).
    await env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 2 UNION ALL SELECT i + 1 FROM n WHERE i < ?2)
       INSERT INTO subscriber_import_rows (import_id, line, email) SELECT ?1, i, 'p' || i || '@example.com' FROM n`,
    )
      .bind(id, IMPORT_MAX_ROWS - 200 + 1)
      .run();
    const next = IMPORT_MAX_ROWS - 200 + 2;
    const over = await call(cookie).rows.$post({ json: { importId: id, rows: rowsFrom(next, IMPORT_CHUNK_ROWS) } });
    expect(over.status).toBe(413);
    expect(await over.json()).toEqual({ message: IMPORT_TOO_MANY_ROWS });
    expect(await storedRows(id)).toBe(IMPORT_MAX_ROWS - 200);

    expect(await okJson(await call(cookie).rows.$post({ json: { importId: id, rows: rowsFrom(next, 200) } }))).toEqual({ staged: IMPORT_MAX_ROWS });
    expect(await okJson(await call(cookie).rows.$post({ json: { importId: id, rows: rowsFrom(next, 200) } }))).toEqual({ staged: IMPORT_MAX_ROWS });
    expect((await call(cookie).rows.$post({ json: { importId: id, rows: rowsFrom(next + 200, 1) } })).status).toBe(413);
    expect(await storedRows(id)).toBe(IMPORT_MAX_ROWS);
  });

  it('the browser refuses such a file before sending any of it', () => {
    const csv = ['Email', ...Array.from({ length: IMPORT_MAX_ROWS + 1 }, (_, i) => `p${i}@example.com`)].join('\n');
    expect(readSubscriberCsv(csv)).toEqual({ ok: false, message: IMPORT_TOO_MANY_ROWS });
  });

  it('reads the stored dry run again instead of rescanning the rows, and works it out anew once more rows are staged', async () => {
    const cookie = await signIn();
    const { id } = await okJson(await call(cookie).$post({ json: { fileName: 'list.csv' } }));
    await okJson(await call(cookie).rows.$post({ json: { importId: id, rows: rowsFrom(2, 3) } }));
    const read = async () => okJson(await call(cookie)[':id'].$get({ param: { id: String(id) } }));
    expect((await read()).counts).toMatchObject({ new: 3, invalid: 0 });
    // A change to the rows behind the API's back: a second read that rescanned would see it.
    await env.DB.prepare("UPDATE subscriber_import_rows SET problem = 'Not a valid e-mail address' WHERE import_id = ?").bind(id).run();
    expect((await read()).counts).toMatchObject({ new: 3, invalid: 0 });
    await okJson(await call(cookie).rows.$post({ json: { importId: id, rows: rowsFrom(5, 1) } }));
    expect(await read()).toMatchObject({ rows: 4, counts: { new: 1, invalid: 3 } });
  });
});
