import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { appointmentLinks, appointmentStartsAt } from '../../worker/services/appointments/links';
import { getDb } from '../../worker/db/client';
import { REMINDERS_PER_TICK, sendDueReminders } from '../../worker/services/appointments/reminders';
import { client, cronTick } from '../harness/worker/helpers';
import { expectAtSlot, inviteOf, uidOf } from '../harness/worker/ical-helpers';
import { fakeMailChannels, mailChannelsEnv, type RecordedRequest } from '../harness/worker/mailchannels-fake';
import { nextWeekday } from '../harness/worker/submission-helpers';

const HOUR = 3_600_000;
const date = nextWeekday(7);
const laterDate = nextWeekday(10);

type Status = 'requested' | 'confirmed' | 'cancelled';
async function insertAppointment(email: string, day: string, timeSlot: string, status: Status = 'requested') {
  const row = await env.DB.prepare(
    "INSERT INTO appointments (name, email, service_type, date, time_slot, status) VALUES ('Rae Visitor', ?, 'Tax Planning', ?, ?, ?) RETURNING id",
  )
    .bind(email, day, timeSlot, status)
    .first<{ id: number }>();
  return row!.id;
}

const startOf = (day: string, timeSlot: string) => appointmentStartsAt({ date: day, timeSlot }).getTime();
const reminders = (mail: RecordedRequest[]) => mail.filter((r) => r.body.subject.startsWith('Reminder:'));
const remindedTo = (mail: RecordedRequest[]) => reminders(mail).map((r) => r.body.personalizations[0].to[0].email).sort();

describe('appointment reminders (the Cron Trigger)', () => {
  it('sends each active appointment starting within 24 hours one reminder, with the invite and both links', async () => {
    const id = await insertAppointment('soon@example.com', date, '10:00 AM', 'confirmed');
    await insertAppointment('requested@example.com', date, '2:00 PM');
    await insertAppointment('cancelled@example.com', date, '11:00 AM', 'cancelled');
    await insertAppointment('later@example.com', laterDate, '10:00 AM');
    const mail = fakeMailChannels();
    const now = startOf(date, '10:00 AM') - 20 * HOUR;
    await cronTick(now, mailChannelsEnv());

    expect(remindedTo(mail)).toEqual(['requested@example.com', 'soon@example.com']);
    const reminder = reminders(mail).find((r) => r.body.personalizations[0].to[0].email === 'soon@example.com')!;
    const invite = inviteOf(reminder);
    expect(invite).toMatchObject({ method: 'REQUEST', status: 'CONFIRMED', uid: uidOf(id), sequence: 0 });
    expectAtSlot(invite, date, '10:00 AM');
    const text = reminder.body.content.find((c) => c.type === 'text/plain')!.value;
    const links = await appointmentLinks(env, { id, date, timeSlot: '10:00 AM', sequence: 0 }, new Date(now));
    expect(text).toContain(`Cancel: ${links.cancelUrl}`);
    expect(text).toContain(`Reschedule: ${links.rescheduleUrl}`);
    const token = new URL(links.cancelUrl).searchParams.get('token')!;
    expect((await client().api.appointments.manage.$get({ query: { token } })).status).toBe(200);
    const logged = await env.DB.prepare("SELECT count(*) AS n FROM email_log WHERE kind = 'appointment-reminder' AND status = 'sent'").first<{ n: number }>();
    expect(logged!.n).toBe(2);

    // Later ticks in the same window send nothing more.
    await cronTick(now + HOUR, mailChannelsEnv());
    await cronTick(now + 10 * HOUR, mailChannelsEnv());
    expect(reminders(mail)).toHaveLength(2);
  });

  it('sends nothing for an appointment more than 24 hours away, or already started', async () => {
    await insertAppointment('far@example.com', date, '10:00 AM');
    const mail = fakeMailChannels();
    await cronTick(startOf(date, '10:00 AM') - 25 * HOUR, mailChannelsEnv());
    await cronTick(startOf(date, '10:00 AM') + 1, mailChannelsEnv());
    expect(reminders(mail)).toHaveLength(0);
    expect((await env.DB.prepare('SELECT count(*) AS n FROM appointment_reminders').first<{ n: number }>())!.n).toBe(0);
  });

  it('overlapping cron invocations send exactly one reminder per appointment (the database decides)', async () => {
    const emails = ['a@example.com', 'b@example.com', 'c@example.com', 'd@example.com'];
    const slots = ['9:00 AM', '10:00 AM', '11:00 AM', '1:00 PM'];
    for (const [i, email] of emails.entries()) await insertAppointment(email, date, slots[i]);
    const mail = fakeMailChannels();
    const now = startOf(date, '9:00 AM') - 12 * HOUR;
    await Promise.all(Array.from({ length: 6 }, (_, i) => cronTick(now + i * 1000, mailChannelsEnv())));
    expect(remindedTo(mail)).toEqual(emails);
    expect((await env.DB.prepare('SELECT count(*) AS n FROM appointment_reminders').first<{ n: number }>())!.n).toBe(4);
  });

  it('never reminds a cancelled appointment, and reminds a rescheduled one again for its new time', async () => {
    const cancelledId = await insertAppointment('gone@example.com', date, '9:00 AM');
    const movedId = await insertAppointment('moved@example.com', date, '10:00 AM');
    const mail = fakeMailChannels();
    const now = startOf(date, '9:00 AM') - 20 * HOUR;
    await cronTick(now, mailChannelsEnv());
    expect(remindedTo(mail)).toEqual(['gone@example.com', 'moved@example.com']);

    // The visitor cancels one and moves the other to the next morning, through their links.
    const cancel = await appointmentLinks(env, { id: cancelledId, date, timeSlot: '9:00 AM', sequence: 0 });
    const move = await appointmentLinks(env, { id: movedId, date, timeSlot: '10:00 AM', sequence: 0 });
    const token = (url: string) => new URL(url).searchParams.get('token')!;
    expect((await client().api.appointments.manage.cancel.$post({ json: { token: token(cancel.cancelUrl) } })).status).toBe(200);
    const newDate = nextWeekday(8) === date ? nextWeekday(9) : nextWeekday(8);
    const moved = await client().api.appointments.manage.reschedule.$post({ json: { token: token(move.rescheduleUrl), date: newDate, timeSlot: '9:00 AM' } });
    expect(moved.status).toBe(200);
    // A cancelled appointment put on the same key again is still never reminded.
    await env.DB.prepare('DELETE FROM appointment_reminders WHERE appointment_id = ?').bind(cancelledId).run();

    const later = startOf(newDate, '9:00 AM') - 20 * HOUR;
    await cronTick(later, mailChannelsEnv());
    await cronTick(later + HOUR, mailChannelsEnv());
    const all = reminders(mail);
    expect(remindedTo(mail)).toEqual(['gone@example.com', 'moved@example.com', 'moved@example.com']);
    const second = inviteOf(all[all.length - 1]);
    expect(second).toMatchObject({ uid: uidOf(movedId), sequence: 1, method: 'REQUEST' });
    expectAtSlot(second, newDate, '9:00 AM');
    const keys = await env.DB.prepare('SELECT date, time_slot FROM appointment_reminders WHERE appointment_id = ? ORDER BY date').bind(movedId).all();
    expect(keys.results).toEqual([
      { date, time_slot: '10:00 AM' },
      { date: newDate, time_slot: '9:00 AM' },
    ]);
  });

  it('sends a bounded number per pass, soonest first; the next pass sends the rest', async () => {
    // A 24-hour window holds at most one day's 7 slots, fewer than the cron's bound of
    // REMINDERS_PER_TICK, so the bound itself is exercised with a smaller limit.
    expect(REMINDERS_PER_TICK).toBe(10);
    const slots = ['4:00 PM', '9:00 AM', '3:00 PM', '10:00 AM', '2:00 PM', '11:00 AM', '1:00 PM'];
    for (const [i, slot] of slots.entries()) await insertAppointment(`p${i}@example.com`, date, slot);
    const mail = fakeMailChannels();
    const testEnv = mailChannelsEnv();
    const now = new Date(startOf(date, '9:00 AM') - HOUR);
    const db = getDb(testEnv.DB);
    expect(await sendDueReminders(testEnv, db, now, 3)).toEqual({ due: 3, claimed: 3, sent: 3, failed: 0, subrequests: 9 });
    expect(reminders(mail).map((r) => r.body.subject.replace(/^.*, /, '').replace(/ ET$/, ''))).toEqual(['9:00 AM', '10:00 AM', '11:00 AM']);
    expect(await sendDueReminders(testEnv, db, now, 3)).toMatchObject({ sent: 3 });
    expect(await sendDueReminders(testEnv, db, now, 3)).toMatchObject({ sent: 1 });
    expect(await sendDueReminders(testEnv, db, now, 3)).toEqual({ due: 0, claimed: 0, sent: 0, failed: 0, subrequests: 1 });
    expect(new Set(remindedTo(mail)).size).toBe(7);
  });
});
