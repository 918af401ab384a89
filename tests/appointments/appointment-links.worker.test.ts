import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { defaultContent } from '#core/content/default-content';
import { firm } from '#core/content/firm';
import { LINK_MESSAGES } from '#core/schemas/appointment-links';
import { BOOKING_MESSAGES } from '#core/schemas/appointments';
import { appointmentLinks, signAppointmentLink, verifyAppointmentLink } from '../../worker/services/appointments/links';
import { APPOINTMENT_CHANGES_MESSAGE } from '../../worker/services/appointments/changes';
import { AVAILABILITY_MESSAGES } from '../../worker/services/appointments/availability';
import { IP_LIMIT_MESSAGE } from '../../worker/services/limits/submission-limits';
import { appointmentInvite } from '../../worker/services/appointments/invite';
import { call, client, signIn } from '../harness/worker/helpers';
import { addDays, firmDay, weekdayFrom } from '../harness/calendar-days';
import { expectAtSlot, inviteOf, newYork, newYorkOffset, parseInvite, uidOf } from '../harness/worker/ical-helpers';
import { callWith, fakeMailChannels, mailChannelsEnv, type RecordedRequest } from '../harness/worker/mailchannels-fake';
import { type BookingInput, callWithEnv, nextSaturday, nextWeekday, validBooking, visitorIp } from '../harness/worker/submission-helpers';

const date = nextWeekday(7);
// Another weekday, never the same one (nextWeekday(9) was, when the 7th day ahead is a Saturday).
const otherDate = weekdayFrom(addDays(date, 2));

const booking = (overrides: Partial<BookingInput> = {}) => validBooking(date, overrides);

type Row = { id: number; status: string; sequence: number; date: string; time_slot: string };
const rowOf = (id: number) => env.DB.prepare('SELECT id, status, sequence, date, time_slot FROM appointments WHERE id = ?').bind(id).first<Row>();

/** Books through the real API with MailChannels faked, and returns the ids and the links from the visitor's e-mail. */
async function book(overrides: Partial<BookingInput> = {}) {
  const mail = fakeMailChannels();
  const res = await callWith(mailChannelsEnv(), '/api/appointments', { body: booking(overrides) });
  expect(res.status, await res.clone().text()).toBe(201);
  const { id } = (await res.json()) as { id: number };
  const confirmation = mail.find((r) => r.body.personalizations[0].to[0].email === (overrides.email ?? 'sam@example.com'))!;
  const { public_id: publicId } = (await env.DB.prepare('SELECT public_id FROM appointments WHERE id = ?').bind(id).first<{ public_id: string }>())!;
  return { id, publicId, confirmation, links: linksIn(confirmation) };
}

/** The Cancel and Reschedule URLs of an e-mail, from its text part, checked against its HTML part. */
function linksIn(mail: RecordedRequest) {
  const text = mail.body.content.find((c) => c.type === 'text/plain')!.value;
  const html = mail.body.content.find((c) => c.type === 'text/html')!.value;
  const cancelUrl = /^Cancel: (\S+)$/m.exec(text)?.[1];
  const rescheduleUrl = /^Reschedule: (\S+)$/m.exec(text)?.[1];
  expect(cancelUrl).toMatch(new RegExp(`^${env.SITE_URL}/appointment/cancel\\?token=`));
  expect(rescheduleUrl).toMatch(new RegExp(`^${env.SITE_URL}/appointment/reschedule\\?token=`));
  expect(html).toContain(`href="${cancelUrl!.replace(/&/g, '&amp;')}"`);
  expect(html).toContain(`href="${rescheduleUrl!.replace(/&/g, '&amp;')}"`);
  return {
    cancel: new URL(cancelUrl!).searchParams.get('token')!,
    reschedule: new URL(rescheduleUrl!).searchParams.get('token')!,
  };
}

const manage = (token: string) => client().api.appointments.manage.$get({ query: { token } });

/** A network of its own for each call, where the forms' per-network allowance is not what a test is about. */
let networks = 0;
const freshIp = () => `198.51.${100 + Math.floor(++networks / 250)}.${networks % 250}`;

async function sendWithMail(path: string, body: unknown) {
  const mail = fakeMailChannels();
  const res = await callWith(mailChannelsEnv(), path, { body });
  return { res, mail, json: (await res.clone().json()) as { message: string; reason?: string; appointment?: Record<string, unknown> } };
}

const to = (mail: RecordedRequest[], address: string) => mail.filter((r) => r.body.personalizations[0].to[0].email === address);

describe('the signed links in the booking confirmation', () => {
  it('carry the appointment public id, sequence, purpose and an expiry at its start, and nothing personal', async () => {
    const { publicId, links } = await book();
    expect(publicId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    for (const [token, purpose] of [
      [links.cancel, 'appointment-cancel'],
      [links.reschedule, 'appointment-reschedule'],
    ] as const) {
      const payload = JSON.parse(atob(token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/'))) as Record<string, unknown>;
      expect(Object.keys(payload).sort()).toEqual(['aud', 'exp', 'iat', 'iss', 'seq', 'sub']);
      // The public id, not the numeric one: a link says nothing about how many appointments there are.
      expect(payload).toMatchObject({ sub: `p${publicId}`, seq: 0, aud: purpose });
      // 10:00 AM on that day in New York.
      const start = newYork(date, '10:00', newYorkOffset(date, '10:00'));
      expect(payload.exp).toBe(start.getTime() / 1000);
      expect(token).not.toContain('sam');
    }
  });

  it('a link that names the appointment by its numeric id (sent before public ids) still works, for a row stored without one too', async () => {
    const { id } = await book();
    // A row stored before the public id existed: its links and invites name it by its numeric id.
    await env.DB.prepare('UPDATE appointments SET public_id = NULL WHERE id = ?').bind(id).run();
    const row = (await rowOf(id))!;
    const oldLink = await signAppointmentLink(env.JWT_SECRET, 'appointment-cancel', { id, date: row.date, timeSlot: row.time_slot, sequence: row.sequence });
    expect(JSON.parse(atob(oldLink.split('.')[1].replace(/-/g, '+').replace(/_/g, '/')))).toMatchObject({ sub: String(id) });
    expect(await (await manage(oldLink)).json()).toMatchObject({ appointment: { date, timeSlot: '10:00 AM' } });

    const { res, mail } = await sendWithMail('/api/appointments/manage/cancel', { token: oldLink });
    expect(res.status).toBe(200);
    expect(await rowOf(id)).toMatchObject({ status: 'cancelled', sequence: 1 });
    expect(inviteOf(to(mail, 'sam@example.com')[0])).toMatchObject({ method: 'CANCEL', uid: uidOf(id), sequence: 1 });
  });

  it('a link naming a public id no appointment has is refused as invalid', async () => {
    const { publicId } = await book();
    const row = (await env.DB.prepare('SELECT date, time_slot FROM appointments WHERE public_id = ?').bind(publicId).first<{ date: string; time_slot: string }>())!;
    const unknown = await signAppointmentLink(env.JWT_SECRET, 'appointment-cancel', { id: 0, publicId: 'A'.repeat(22), date: row.date, timeSlot: row.time_slot, sequence: 0 });
    const res = await client().api.appointments.manage.cancel.$post({ json: { token: unknown } });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ reason: 'invalid' });
  });

  it('GET shows the appointment and changes nothing, for either link', async () => {
    const { id, links } = await book();
    const before = await rowOf(id);
    for (const [token, action] of [
      [links.cancel, 'cancel'],
      [links.reschedule, 'reschedule'],
    ] as const) {
      const res = await manage(token);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({
        action,
        appointment: { serviceType: 'Individual Tax Return', date, timeSlot: '10:00 AM', status: 'requested', when: expect.stringMatching(/at 10:00 AM Eastern Time$/) },
      });
    }
    expect(await rowOf(id)).toEqual(before);
  });

  it('refuses a tampered, a foreign, a wrong-purpose and an expired link with a clear message, changing nothing', async () => {
    const { id, links } = await book();
    const [h, p, s] = links.cancel.split('.');
    const flipped = `${h}.${p}.${s.slice(0, -2)}${s.endsWith('AA') ? 'BA' : 'AA'}`;
    // Another appointment's id in the payload, the signature kept.
    const otherPayload = btoa(JSON.stringify({ ...JSON.parse(atob(p.replace(/-/g, '+').replace(/_/g, '/'))), sub: String(id + 1) }))
      .replace(/\+/g, '-')
      .replace(/\//g, '_')
      .replace(/=+$/, '');
    for (const bad of [flipped, `${h}.${otherPayload}.${s}`, 'not-a-token', 'a.b.c']) {
      const res = await manage(bad);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ message: LINK_MESSAGES.invalid });
      expect((await client({ ip: freshIp() }).api.appointments.manage.cancel.$post({ json: { token: bad } })).status).toBe(400);
    }
    // A token signed with another secret.
    const foreign = await signAppointmentLink('another-secret-of-at-least-32-characters!', 'appointment-cancel', { id, sequence: 0, date, timeSlot: '10:00 AM' });
    expect((await manage(foreign)).status).toBe(400);
    // The reschedule link cannot cancel, and the cancel link cannot reschedule.
    expect((await client({ ip: freshIp() }).api.appointments.manage.cancel.$post({ json: { token: links.reschedule } })).status).toBe(400);
    expect((await client({ ip: freshIp() }).api.appointments.manage.reschedule.$post({ json: { token: links.cancel, date: otherDate, timeSlot: '9:00 AM' } })).status).toBe(400);
    // Genuine, but the appointment time has passed: expired.
    const expired = await signAppointmentLink(env.JWT_SECRET, 'appointment-cancel', { id, sequence: 0, date: '2020-01-06', timeSlot: '9:00 AM' });
    const res = await client({ ip: freshIp() }).api.appointments.manage.cancel.$post({ json: { token: expired } });
    expect(res.status).toBe(410);
    expect(await res.json()).toEqual({ message: LINK_MESSAGES.expired, reason: 'expired' });
    expect(await verifyAppointmentLink(env.JWT_SECRET, links.cancel, ['appointment-cancel'], newYork(date, '10:00', '-05:00'))).toMatchObject({ ok: false });
    expect(await rowOf(id)).toMatchObject({ status: 'requested', sequence: 0 });
  });

  it('refuses a cross-site POST (same-origin stays on)', async () => {
    const { id, links } = await book();
    const res = await client({ headers: { origin: 'https://evil.example' } }).api.appointments.manage.cancel.$post({ json: { token: links.cancel } });
    expect(res.status).toBe(403);
    expect(await rowOf(id)).toMatchObject({ status: 'requested' });
  });
});

describe('POST /api/appointments/manage/cancel', () => {
  it('cancels, frees the slot at once, notifies the firm and sends the visitor a CANCEL', async () => {
    const { id, publicId, links, confirmation } = await book();
    const booked = inviteOf(confirmation);
    expect(booked).toMatchObject({ method: 'REQUEST', uid: uidOf(publicId), sequence: 0, status: 'TENTATIVE' });
    expectAtSlot(booked, date, '10:00 AM');

    const { res, mail, json } = await sendWithMail('/api/appointments/manage/cancel', { token: links.cancel });
    expect(res.status).toBe(200);
    expect(json.appointment).toMatchObject({ status: 'cancelled', date, timeSlot: '10:00 AM' });
    expect(await rowOf(id)).toMatchObject({ status: 'cancelled', sequence: 1 });

    const [visitor] = to(mail, 'sam@example.com');
    expect(visitor.body.subject).toMatch(/^Appointment cancelled/);
    const cancel = inviteOf(visitor);
    expect(cancel).toMatchObject({ method: 'CANCEL', uid: uidOf(publicId), sequence: 1, status: 'CANCELLED', filename: 'cancellation.ics' });
    expect(cancel.type).toContain('method=CANCEL');
    expect(cancel.attendee).toBe('mailto:sam@example.com');
    expectAtSlot(cancel, date, '10:00 AM');
    const [firmMail] = to(mail, firm.contact.email);
    expect(firmMail.body.subject).toMatch(/^Appointment cancelled by the visitor/);
    // It names the appointment by its time (and the rows below: service, visitor), as the admin's list does: no id.
    expect(firmMail.body.content[0].value).toMatch(/^The visitor cancelled their appointment on \w+day, .+ at 10:00 AM Eastern Time\. The slot is free again\.\n/);

    // The slot can be booked again straight away.
    const again = await client({ ip: visitorIp(900) }).api.appointments.$post({ json: booking({ email: 'next@example.com' }) });
    expect(again.status).toBe(201);
  });

  it('acts once: the used link and the old reschedule link then say the appointment is cancelled', async () => {
    const { id, links } = await book();
    expect((await client().api.appointments.manage.cancel.$post({ json: { token: links.cancel } })).status).toBe(200);
    for (const res of [
      await client().api.appointments.manage.cancel.$post({ json: { token: links.cancel } }),
      await client().api.appointments.manage.reschedule.$post({ json: { token: links.reschedule, date: otherDate, timeSlot: '9:00 AM' } }),
      await manage(links.cancel),
    ]) {
      expect(res.status).toBe(410);
      expect(await res.json()).toEqual({ message: LINK_MESSAGES.cancelled, reason: 'cancelled' });
    }
    expect(await rowOf(id)).toMatchObject({ status: 'cancelled', sequence: 1, date });
  });

  it('two simultaneous clicks cancel once (one e-mail pair)', async () => {
    const { id, links } = await book();
    const mail = fakeMailChannels();
    const results = await Promise.all([0, 1, 2].map(() => callWith(mailChannelsEnv(), '/api/appointments/manage/cancel', { body: { token: links.cancel } })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 410, 410]);
    expect(await rowOf(id)).toMatchObject({ status: 'cancelled', sequence: 1 });
    expect(to(mail, 'sam@example.com')).toHaveLength(1);
  });
});

describe('POST /api/appointments/manage/reschedule', () => {
  it('moves the booking atomically, back to requested, frees the old slot, notifies the firm and sends an updated REQUEST with fresh links', async () => {
    const { id, publicId, links } = await book();
    const cookie = await signIn();
    // Confirmed first (sequence 1, new links by e-mail): the reschedule link must come from that e-mail.
    const confirmMail = fakeMailChannels();
    expect((await callWith(mailChannelsEnv(), `/api/admin/appointments/${id}`, { method: 'PATCH', body: { status: 'confirmed' }, cookie })).status).toBe(200);
    const confirmed = to(confirmMail, 'sam@example.com')[0];
    expect(inviteOf(confirmed)).toMatchObject({ method: 'REQUEST', status: 'CONFIRMED', sequence: 1, uid: uidOf(publicId) });
    // The links of the first e-mail died with the change.
    const stale = await client().api.appointments.manage.reschedule.$post({ json: { token: links.reschedule, date: otherDate, timeSlot: '2:00 PM' } });
    expect(stale.status).toBe(410);
    expect(await stale.json()).toEqual({ message: LINK_MESSAGES.used, reason: 'used' });
    const fresh = linksIn(confirmed);

    const { res, mail, json } = await sendWithMail('/api/appointments/manage/reschedule', { token: fresh.reschedule, date: otherDate, timeSlot: '2:00 PM' });
    expect(res.status).toBe(200);
    expect(json.appointment).toMatchObject({ status: 'requested', date: otherDate, timeSlot: '2:00 PM' });
    expect(await rowOf(id)).toMatchObject({ status: 'requested', sequence: 2, date: otherDate, time_slot: '2:00 PM' });

    const [visitor] = to(mail, 'sam@example.com');
    const moved = inviteOf(visitor);
    expect(moved).toMatchObject({ method: 'REQUEST', uid: uidOf(publicId), sequence: 2, status: 'TENTATIVE', filename: 'appointment.ics' });
    expectAtSlot(moved, otherDate, '2:00 PM');
    expect(visitor.body.content[0].value).toContain('has moved from');
    const [firmMail] = to(mail, firm.contact.email);
    expect(firmMail.body.subject).toMatch(/^Appointment rescheduled by the visitor/);
    expect(firmMail.body.content[0].value).toMatch(/^The visitor moved their appointment from \w+day, .+ at 10:00 AM Eastern Time to \w+day, .+ at 2:00 PM Eastern Time\. It is a request again/);

    // The old slot is free, the e-mail's new links work, the used one does not.
    expect((await client({ ip: visitorIp(901) }).api.appointments.$post({ json: booking({ email: 'other@example.com' }) })).status).toBe(201);
    const next = linksIn(visitor);
    expect((await manage(next.cancel)).status).toBe(200);
    expect((await manage(fresh.reschedule)).status).toBe(410);
  });

  it('answers 409 when the new slot is taken, a closed day or a slot not offered, leaving the booking untouched', async () => {
    const { id, links } = await book();
    await client({ ip: visitorIp(902) }).api.appointments.$post({ json: booking({ email: 'first@example.com', date: otherDate, timeSlot: '11:00 AM' }) });
    const taken = await client().api.appointments.manage.reschedule.$post({ json: { token: links.reschedule, date: otherDate, timeSlot: '11:00 AM' } });
    expect(taken.status).toBe(409);
    expect(await taken.json()).toEqual({ message: BOOKING_MESSAGES.taken });

    await env.DB.prepare('INSERT INTO blocked_dates (date, reason) VALUES (?, ?)').bind(otherDate, 'Training day').run();
    const closed = await client().api.appointments.manage.reschedule.$post({ json: { token: links.reschedule, date: otherDate, timeSlot: '3:00 PM' } });
    expect(closed.status).toBe(409);
    expect(await closed.json()).toEqual({ message: AVAILABILITY_MESSAGES.closed });

    const weekday = new Date(`${date}T12:00:00Z`).getUTCDay();
    await env.DB.prepare("DELETE FROM weekday_slots WHERE weekday = ? AND time_slot = '4:00 PM'").bind(weekday).run();
    const notOffered = await client().api.appointments.manage.reschedule.$post({ json: { token: links.reschedule, date, timeSlot: '4:00 PM' } });
    expect(notOffered.status).toBe(409);
    expect(await notOffered.json()).toEqual({ message: AVAILABILITY_MESSAGES.notOffered });

    const same = await client().api.appointments.manage.reschedule.$post({ json: { token: links.reschedule, date, timeSlot: '10:00 AM' } });
    expect(same.status).toBe(409);

    expect(await rowOf(id)).toMatchObject({ status: 'requested', sequence: 0, date, time_slot: '10:00 AM' });
    expect((await manage(links.reschedule)).status).toBe(200);
  });

  it("applies the booking form's date and slot rules (400 with field messages)", async () => {
    const { id, links } = await book();
    const cases = [
      [{ date: nextSaturday(), timeSlot: '9:00 AM' }, 'date', BOOKING_MESSAGES.weekend],
      [{ date: '2020-01-06', timeSlot: '9:00 AM' }, 'date', BOOKING_MESSAGES.past],
      [{ date: '2026-02-30', timeSlot: '9:00 AM' }, 'date', BOOKING_MESSAGES.dateInvalid],
      [{ date: otherDate, timeSlot: '8:00 PM' }, 'timeSlot', BOOKING_MESSAGES.slot],
    ] as const;
    for (const [body, field, message] of cases) {
      // Raw call: the body is malformed on purpose, which the typed client would not compile.
      const res = await call('/api/appointments/manage/reschedule', { body: { token: links.reschedule, ...body } });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { fields: Record<string, string[]> }).fields[field]).toContain(message);
    }
    expect(await rowOf(id)).toMatchObject({ sequence: 0, date });
  });

  it('20 concurrent reschedules of different appointments into one slot: exactly one succeeds', async () => {
    const tokens: string[] = [];
    const ids: number[] = [];
    const slots = ['9:00 AM', '10:00 AM', '11:00 AM', '1:00 PM', '2:00 PM', '3:00 PM', '4:00 PM'];
    const days = [nextWeekday(14), nextWeekday(15), nextWeekday(16), nextWeekday(17), nextWeekday(18)].filter((d, i, all) => all.indexOf(d) === i);
    const target = { date: nextWeekday(21), timeSlot: '1:00 PM' as const };
    // 20 distinct slots, stored directly (the per-visitor allowance is not what this tests).
    for (let i = 0; ids.length < 20; i++) {
      const row = await env.DB.prepare(
        "INSERT INTO appointments (name, email, service_type, date, time_slot, status) VALUES (?, ?, 'Tax Planning', ?, ?, 'requested') RETURNING id, date, time_slot, sequence",
      )
        .bind(`Visitor ${i}`, `v${i}@example.com`, days[Math.floor(i / slots.length) % days.length], slots[i % slots.length])
        .first<{ id: number; date: string; time_slot: string; sequence: number }>();
      ids.push(row!.id);
      tokens.push((await appointmentLinks(env, { id: row!.id, date: row!.date, timeSlot: row!.time_slot, sequence: row!.sequence })).rescheduleUrl.split('token=')[1]);
    }
    const results = await Promise.all(tokens.map((token) => client({ ip: freshIp() }).api.appointments.manage.reschedule.$post({ json: { token: decodeURIComponent(token), ...target } })));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    const inTarget = await env.DB.prepare("SELECT id FROM appointments WHERE date = ? AND time_slot = ? AND status <> 'cancelled'").bind(target.date, target.timeSlot).all<{ id: number }>();
    expect(inTarget.results).toHaveLength(1);
    const winner = ids[statuses.indexOf(200)];
    expect(inTarget.results[0].id).toBe(winner);
    // The 19 others are where they were, unchanged.
    const unchanged = await env.DB.prepare('SELECT count(*) AS n FROM appointments WHERE sequence = 0 AND id <> ?').bind(winner).first<{ n: number }>();
    expect(unchanged!.n).toBe(19);
  });
});

describe('the limits on the link actions', () => {
  const reschedule = (token: string, slot: { date: string; timeSlot: string }, ip: string, extra: Partial<Cloudflare.Env> = {}) =>
    callWith(mailChannelsEnv(extra), '/api/appointments/manage/reschedule', { body: { token, ...slot }, ip });

  it('at most 3 changes of one appointment per firm day: following each new link, the 4th and later get 429 and send nothing', async () => {
    const { id, links } = await book();
    const mail = fakeMailChannels();
    // Each time another slot than the one it is in (a move to the same slot is refused before any count).
    const slots = ['9:00 AM', '2:00 PM', '3:00 PM', '9:00 AM', '2:00 PM', '9:00 AM', '2:00 PM', '9:00 AM'].map((timeSlot) => ({ date: otherDate, timeSlot }));
    // The attack: move the booking again and again, each time with the link of the newest e-mail.
    let current = links;
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      const res = await reschedule(current.reschedule, slots[i], freshIp());
      statuses.push(res.status);
      if (res.status === 429) expect(await res.json()).toEqual({ message: APPOINTMENT_CHANGES_MESSAGE });
      const visitor = to(mail, 'sam@example.com');
      if (res.status === 200) current = linksIn(visitor[visitor.length - 1]);
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429, 429, 429, 429]);
    expect(APPOINTMENT_CHANGES_MESSAGE).toBe(`This appointment has already been changed 3 times today. Please try again tomorrow, or call us at ${firm.contact.phone}.`);
    // Three moves, three e-mail pairs (not 16 e-mails).
    expect(mail).toHaveLength(6);
    expect(await rowOf(id)).toMatchObject({ status: 'requested', sequence: 3, date: otherDate, time_slot: '3:00 PM' });
    // A cancel is a change too; the link stays good for tomorrow.
    const cancel = await callWith(mailChannelsEnv(), '/api/appointments/manage/cancel', { body: { token: current.cancel }, ip: freshIp() });
    expect(cancel.status).toBe(429);
    expect(await cancel.json()).toEqual({ message: APPOINTMENT_CHANGES_MESSAGE });
    expect(mail).toHaveLength(6);
    expect(await rowOf(id)).toMatchObject({ status: 'requested', sequence: 3 });
    expect((await manage(current.cancel)).status).toBe(200);
  });

  it("counts only the firm day's changes, and only those made: refused moves do not use one up", async () => {
    const { id, links } = await book();
    // Three changes yesterday do not count today.
    const yesterday = firmDay(-1);
    await env.DB.prepare('INSERT INTO daily_counters (day, counter, count) VALUES (?, ?, 3)').bind(yesterday, `appointment-changes:${id}`).run();
    // Refused moves (the same slot, a taken slot) change nothing and count nothing.
    expect((await reschedule(links.reschedule, { date, timeSlot: '10:00 AM' }, freshIp())).status).toBe(409);
    await client({ ip: visitorIp(903) }).api.appointments.$post({ json: booking({ email: 'first@example.com', date: otherDate, timeSlot: '11:00 AM' }) });
    expect((await reschedule(links.reschedule, { date: otherDate, timeSlot: '11:00 AM' }, freshIp())).status).toBe(409);
    const mail = fakeMailChannels();
    let current = links;
    for (const timeSlot of ['9:00 AM', '2:00 PM', '3:00 PM']) {
      const res = await reschedule(current.reschedule, { date: otherDate, timeSlot }, freshIp());
      expect(res.status).toBe(200);
      const visitor = to(mail, 'sam@example.com');
      current = linksIn(visitor[visitor.length - 1]);
    }
    expect((await reschedule(current.reschedule, { date: otherDate, timeSlot: '4:00 PM' }, freshIp())).status).toBe(429);
    expect(await rowOf(id)).toMatchObject({ sequence: 3, time_slot: '3:00 PM' });
  });

  it("the forms' per-network allowance applies to the link actions: one network gets 429 once it is used up", async () => {
    const { id, links } = await book();
    const limited = { SUBMISSIONS_PER_IP_PER_WINDOW: '2' };
    const ip = '203.0.113.150';
    // The allowance is shared with the forms: a contact message, then a move, use it up.
    expect((await callWithEnv(limited, '/api/contact', { ip, body: { name: 'Sam', email: 'sam@example.com', message: 'A question before my visit.' } })).status).toBe(201);
    const mail = fakeMailChannels();
    expect((await reschedule(links.reschedule, { date: otherDate, timeSlot: '9:00 AM' }, ip, limited)).status).toBe(200);
    const next = linksIn(to(mail, 'sam@example.com')[0]);
    for (const res of [
      await callWith(mailChannelsEnv(limited), '/api/appointments/manage/cancel', { body: { token: next.cancel }, ip }),
      await reschedule(next.reschedule, { date: otherDate, timeSlot: '2:00 PM' }, ip, limited),
      // Any token: attempts are counted before the link is read.
      await callWith(mailChannelsEnv(limited), '/api/appointments/manage/cancel', { body: { token: 'a.b.c' }, ip }),
    ]) {
      expect(res.status).toBe(429);
      expect(res.headers.get('retry-after')).toBe('600');
      expect(await res.json()).toEqual({ message: IP_LIMIT_MESSAGE });
    }
    expect(mail).toHaveLength(2);
    expect(await rowOf(id)).toMatchObject({ status: 'requested', sequence: 1, time_slot: '9:00 AM' });
    // Another network still can; opening the page is not counted.
    expect((await manage(next.cancel)).status).toBe(200);
    expect((await callWith(mailChannelsEnv(limited), '/api/appointments/manage/cancel', { body: { token: next.cancel }, ip: '203.0.113.151' })).status).toBe(200);
  });

  it('simultaneous moves of one appointment: one wins, and only it is counted', async () => {
    const { id, links } = await book();
    const targets = ['9:00 AM', '11:00 AM', '1:00 PM', '2:00 PM', '3:00 PM', '4:00 PM'];
    const results = await Promise.all(targets.map((timeSlot) => reschedule(links.reschedule, { date: otherDate, timeSlot }, freshIp())));
    expect(results.map((r) => r.status).sort()).toEqual([200, 410, 410, 410, 410, 410]);
    expect(await rowOf(id)).toMatchObject({ sequence: 1 });
    expect(await env.DB.prepare('SELECT count FROM daily_counters WHERE counter = ?').bind(`appointment-changes:${id}`).first()).toEqual({ count: 1 });
  });
});

describe('admin confirm and cancel send calendar updates', () => {
  it('confirm: REQUEST CONFIRMED at the next SEQUENCE; cancel: CANCEL CANCELLED at the one after, same UID', async () => {
    const { id, publicId, links } = await book({ timeSlot: '3:00 PM' });
    const cookie = await signIn();
    const mail = fakeMailChannels();
    const env2 = mailChannelsEnv();
    expect((await callWith(env2, `/api/admin/appointments/${id}`, { method: 'PATCH', body: { status: 'confirmed' }, cookie })).status).toBe(200);
    expect((await callWith(env2, `/api/admin/appointments/${id}`, { method: 'PATCH', body: { status: 'cancelled' }, cookie })).status).toBe(200);
    const [confirmedMail, cancelledMail] = to(mail, 'sam@example.com');
    const confirmed = inviteOf(confirmedMail);
    expect(confirmed).toMatchObject({ method: 'REQUEST', status: 'CONFIRMED', sequence: 1, uid: uidOf(publicId) });
    expect(confirmed.type).toContain('method=REQUEST');
    expectAtSlot(confirmed, date, '3:00 PM');
    const cancelled = inviteOf(cancelledMail);
    expect(cancelled).toMatchObject({ method: 'CANCEL', status: 'CANCELLED', sequence: 2, uid: uidOf(publicId) });
    expectAtSlot(cancelled, date, '3:00 PM');
    expect(await rowOf(id)).toMatchObject({ status: 'cancelled', sequence: 2 });
    // The first e-mail's links are void; the cancelled appointment says so.
    expect(await (await manage(links.cancel)).json()).toMatchObject({ reason: 'cancelled' });
  });
});

describe('invites across daylight-saving changes (parsed by ical.js)', () => {
  const base = { id: 7, name: 'Sam "Q" Client', email: 'sam@example.com', phone: null, serviceType: 'Tax Planning', notes: null };
  it.each([
    // EST before the March change, EDT after it; EDT before the November change, EST after it.
    ['2027-03-12', '9:00 AM', '09:00', '-05:00'],
    ['2027-03-15', '9:00 AM', '09:00', '-04:00'],
    ['2026-10-30', '4:00 PM', '16:00', '-04:00'],
    ['2026-11-02', '4:00 PM', '16:00', '-05:00'],
  ] as const)('%s %s starts at %s %s and lasts the hour', (day, slot, hhmm, offset) => {
    for (const [status, method, icalStatus] of [
      ['requested', 'REQUEST', 'TENTATIVE'],
      ['confirmed', 'REQUEST', 'CONFIRMED'],
      ['cancelled', 'CANCEL', 'CANCELLED'],
    ] as const) {
      const invite = parseInvite(appointmentInvite(env, defaultContent.firm, { ...base, date: day, timeSlot: slot, status, sequence: 3 }));
      expect(invite).toMatchObject({ method, status: icalStatus, sequence: 3, uid: uidOf(7), tzid: 'America/New_York' });
      expect(invite.start.toISOString()).toBe(newYork(day, hhmm, offset).toISOString());
      expect(invite.end.getTime() - invite.start.getTime()).toBe(3_600_000);
      expect(invite.organizer).toBe(`mailto:${firm.contact.email}`);
      expect(invite.attendee).toBe('mailto:sam@example.com');
    }
  });
});
