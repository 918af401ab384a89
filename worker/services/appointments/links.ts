import { errors, jwtVerify, SignJWT } from 'jose';
import type { BookingTimeSlot } from '#core/content/booking';
import { firm } from '#core/content/firm';
import type { appointments } from '../../db/schema';
import { slotStartMinutes } from '#core/schemas/appointments';
import { zonedToUtc } from './ics';
import { ALGORITHM, hmacSigningKey, ISSUER, jwtSecretKey } from '../platform/link-signing';
import { bytesToBase64Url } from '#core/encoding';

// The visitor's self-service links (docs/product.md §3): every booking e-mail carries a Cancel and
// a Reschedule link. Each is a JWT signed with JWT_SECRET the way the newsletter links are
// (worker/services/platform/link-signing.ts), with its own audience so neither can be used for the
// other or as any other token. It carries the appointment's public id (appointments.public_id), its
// `sequence` and an expiry at the appointment's start in the firm's zone, nothing personal: any
// change to the appointment (confirm, cancel, reschedule) moves `sequence` on, so every link sent
// before the change stops working. Appointments stored before the public id existed are named by
// their numeric id, and links naming one that way (already in visitors' inboxes) keep working.

export type AppointmentLinkPurpose = 'appointment-cancel' | 'appointment-reschedule';
export const APPOINTMENT_LINK_PURPOSES: readonly AppointmentLinkPurpose[] = ['appointment-cancel', 'appointment-reschedule'];

/**
 * How an appointment is named outside the database (links, the invite's UID): by its public id, or,
 * for a row stored before it existed (public_id null), by its numeric id. A row not yet inserted
 * always has a public id, which then stands for its id too.
 */
export type AppointmentRef = { id: number | string; publicId?: string | null };

// Only an appointment with a time has links: they expire at its start. A request without a time
// gets them when the admin confirms it with a slot (docs/product.md §3).
type LinkedAppointment = AppointmentRef & Pick<typeof appointments.$inferSelect, 'date'> & { timeSlot: string; sequence?: number };

/**
 * A new appointment's public id: 16 random bytes, base64url (22 characters), chosen before the
 * insert so the booking's e-mails can name the row in its own batch. Unguessable, so it
 * says nothing about how many appointments there are.
 */
export function newAppointmentPublicId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return bytesToBase64Url(bytes);
}

/** The appointment's name in its invite's UID: the public id when it has one, else (older rows) the numeric id. */
export const appointmentRef = (a: AppointmentRef): string => (a.publicId ? a.publicId : String(a.id));

// A link's `sub`: the public id behind a prefix no number parses from, or (links sent before the
// public id existed) the numeric id as decimal digits.
const PUBLIC_SUBJECT_PREFIX = 'p';
const PUBLIC_SUBJECT = /^p([A-Za-z0-9_-]{22})$/;
const NUMERIC_SUBJECT = /^[1-9][0-9]{0,15}$/;

const linkSubject = (a: AppointmentRef) => (a.publicId ? `${PUBLIC_SUBJECT_PREFIX}${a.publicId}` : String(a.id));

/** The appointment a link names, by whichever of its ids the link carries. */
export type LinkedAppointmentKey = { publicId: string } | { id: number };

function subjectKey(sub: string | undefined): LinkedAppointmentKey | null {
  const publicId = PUBLIC_SUBJECT.exec(sub ?? '')?.[1];
  if (publicId) return { publicId };
  const id = NUMERIC_SUBJECT.test(sub ?? '') ? Number(sub) : NaN;
  return Number.isSafeInteger(id) ? { id } : null;
}

/** The instant the appointment starts: its slot's wall-clock time on its day in the firm's zone. */
export function appointmentStartsAt(a: Pick<LinkedAppointment, 'date' | 'timeSlot'>, timeZone: string = firm.timeZone): Date {
  return zonedToUtc(a.date, slotStartMinutes(a.timeSlot as BookingTimeSlot), timeZone);
}

export async function signAppointmentLink(secret: string, purpose: AppointmentLinkPurpose, a: LinkedAppointment, now: Date = new Date()): Promise<string> {
  const hmac = await hmacSigningKey(secret);
  return new SignJWT({ seq: a.sequence ?? 0 })
    .setProtectedHeader({ alg: ALGORITHM })
    .setSubject(linkSubject(a))
    .setIssuer(ISSUER)
    .setAudience(purpose)
    .setIssuedAt(Math.floor(now.getTime() / 1000))
    .setExpirationTime(Math.floor(appointmentStartsAt(a).getTime() / 1000))
    .sign(hmac);
}

export type LinkCheck =
  | { ok: true; purpose: AppointmentLinkPurpose; appointment: LinkedAppointmentKey; sequence: number }
  | { ok: false; reason: 'invalid' | 'expired' };

/**
 * What a token says, when it is one of ours for one of `purposes`: a bad signature, another
 * audience or a malformed token is 'invalid'; a genuine token past the appointment's start is
 * 'expired' (told apart only after the signature checked out). Whether the appointment has changed
 * since (its sequence) is for the caller to compare.
 */
export async function verifyAppointmentLink(
  secret: string,
  token: string,
  purposes: readonly AppointmentLinkPurpose[] = APPOINTMENT_LINK_PURPOSES,
  now: Date = new Date(),
): Promise<LinkCheck> {
  try {
    const { payload } = await jwtVerify(token, jwtSecretKey(secret), {
      algorithms: [ALGORITHM],
      issuer: ISSUER,
      audience: [...purposes],
      requiredClaims: ['exp', 'sub'],
      currentDate: now,
    });
    const appointment = subjectKey(payload.sub);
    const purpose = purposes.find((p) => p === payload.aud || (Array.isArray(payload.aud) && payload.aud.length === 1 && payload.aud[0] === p));
    if (!purpose || !appointment || !Number.isSafeInteger(payload.seq)) return { ok: false, reason: 'invalid' };
    return { ok: true, purpose, appointment, sequence: payload.seq as number };
  } catch (error) {
    return { ok: false, reason: error instanceof errors.JWTExpired ? 'expired' : 'invalid' };
  }
}

export interface AppointmentLinks {
  cancelUrl: string;
  rescheduleUrl: string;
}

/** The two pages' URLs on this site (SITE_URL) for the appointment as it is now. */
export async function appointmentLinks(env: { JWT_SECRET: string; SITE_URL: string }, a: LinkedAppointment, now: Date = new Date()): Promise<AppointmentLinks> {
  const [cancel, reschedule] = await Promise.all([
    signAppointmentLink(env.JWT_SECRET, 'appointment-cancel', a, now),
    signAppointmentLink(env.JWT_SECRET, 'appointment-reschedule', a, now),
  ]);
  const page = (path: string, token: string) => {
    const url = new URL(path, env.SITE_URL);
    url.searchParams.set('token', token);
    return url.toString();
  };
  return { cancelUrl: page('/appointment/cancel', cancel), rescheduleUrl: page('/appointment/reschedule', reschedule) };
}
