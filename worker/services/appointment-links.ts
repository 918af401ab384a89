import { errors, jwtVerify, SignJWT } from 'jose';
import type { BookingTimeSlot } from '../../web/content/booking';
import { firm } from '../../web/content/firm';
import type { appointments } from '../db/schema';
import { slotStartMinutes } from '../schemas/appointments';
import { zonedToUtc } from './ics';
import { ALGORITHM, ISSUER, key } from './newsletter/tokens';

// The visitor's self-service links (docs/product.md §3): every booking e-mail carries a Cancel and
// a Reschedule link. Each is a JWT signed with JWT_SECRET the way the newsletter links are
// (worker/services/newsletter/tokens.ts), with its own audience so neither can be used for the
// other or as any other token. It carries the appointment's id, its `sequence` and an expiry at the
// appointment's start in the firm's zone, nothing personal: any change to the appointment (confirm,
// cancel, reschedule) moves `sequence` on, so every link sent before the change stops working.

export type AppointmentLinkPurpose = 'appointment-cancel' | 'appointment-reschedule';
export const APPOINTMENT_LINK_PURPOSES: readonly AppointmentLinkPurpose[] = ['appointment-cancel', 'appointment-reschedule'];

type LinkedAppointment = Pick<typeof appointments.$inferSelect, 'id' | 'date' | 'timeSlot'> & { sequence?: number };

/** The instant the appointment starts: its slot's wall-clock time on its day in the firm's zone. */
export function appointmentStartsAt(a: Pick<LinkedAppointment, 'date' | 'timeSlot'>, timeZone: string = firm.timeZone): Date {
  return zonedToUtc(a.date, slotStartMinutes(a.timeSlot as BookingTimeSlot), timeZone);
}

// The imported HMAC key per secret, kept for the isolate's life: every booking signs two links, and
// importing the key (what jose does for raw key bytes) costs about as much as signing (issue 17).
const signingKeys = new Map<string, CryptoKey>();

/** The key itself is kept, not a pending promise: nothing one request awaits is settled by another. */
async function signingKey(secret: string): Promise<CryptoKey> {
  const cached = signingKeys.get(secret);
  if (cached) return cached;
  const imported = await crypto.subtle.importKey('raw', key(secret) as Uint8Array<ArrayBuffer>, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  signingKeys.set(secret, imported);
  return imported;
}

export async function signAppointmentLink(secret: string, purpose: AppointmentLinkPurpose, a: LinkedAppointment, now: Date = new Date()): Promise<string> {
  const hmac = await signingKey(secret);
  return new SignJWT({ seq: a.sequence ?? 0 })
    .setProtectedHeader({ alg: ALGORITHM })
    .setSubject(String(a.id))
    .setIssuer(ISSUER)
    .setAudience(purpose)
    .setIssuedAt(Math.floor(now.getTime() / 1000))
    .setExpirationTime(Math.floor(appointmentStartsAt(a).getTime() / 1000))
    .sign(hmac);
}

export type LinkCheck =
  | { ok: true; purpose: AppointmentLinkPurpose; appointmentId: number; sequence: number }
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
    const { payload } = await jwtVerify(token, key(secret), {
      algorithms: [ALGORITHM],
      issuer: ISSUER,
      audience: [...purposes],
      requiredClaims: ['exp', 'sub'],
      currentDate: now,
    });
    const appointmentId = Number(payload.sub);
    const purpose = purposes.find((p) => p === payload.aud || (Array.isArray(payload.aud) && payload.aud.length === 1 && payload.aud[0] === p));
    if (!purpose || !Number.isSafeInteger(appointmentId) || appointmentId <= 0 || !Number.isSafeInteger(payload.seq)) return { ok: false, reason: 'invalid' };
    return { ok: true, purpose, appointmentId, sequence: payload.seq as number };
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
