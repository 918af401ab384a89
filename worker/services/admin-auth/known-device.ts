import { isLocalHost } from '../platform/local-host';
import { hashIp } from '../limits/client-ip';
import type { LoginSubject } from './login-throttle';
import type { AdminRequest } from './request';
import type { CookieToSet } from './session';
import { bytesToBase64Url } from '#core/encoding';

// The "known device" cookie (docs/decisions/0011-known-devices-and-the-sign-in-delay.md): a browser
// that signed in as an administrator before carries a random device id signed for that
// administrator's id. Its sign-in attempts are counted for the device alone, so neither the
// account-wide delay nor a lock earned by other networks keeps the real admin out. One cookie per
// administrator (the id is in its name), so admins sharing a browser do not replace each other's.

/** A year (browsers cap cookies at 400 days); renewed by every sign-in from the device. */
export const KNOWN_DEVICE_TTL_SECONDS = 365 * 24 * 60 * 60;

/** The cookie of `userId`: Secure and __Host- prefixed over HTTPS, like the session cookie (session.ts). */
function deviceCookie(requestUrl: string, userId: number): { name: string; secure: boolean } {
  const url = new URL(requestUrl);
  const https = url.protocol === 'https:';
  return { name: `${https ? '__Host-' : ''}admin_device_${userId}`, secure: https || !isLocalHost(url.hostname) };
}

// The imported key per secret, kept for the isolate's life (like the network hash's key, client-ip.ts).
const knownDeviceKeys = new Map<string, CryptoKey>();

/** An HMAC key derived from JWT_SECRET for this purpose only: one secret to rotate, no key reused across uses. */
async function knownDeviceKey(secret: string): Promise<CryptoKey> {
  const cached = knownDeviceKeys.get(secret);
  if (cached) return cached;
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(`known-device:${secret}`), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
    'verify',
  ]);
  knownDeviceKeys.set(secret, key);
  return key;
}

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9_-]+$/.test(text)) return null;
  try {
    return Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (ch) => ch.charCodeAt(0));
  } catch {
    return null;
  }
}

/** What is signed: the administrator's id and the device's, so a cookie is worth nothing for another account. */
const signedText = (userId: number, deviceId: string) => new TextEncoder().encode(`known-device:v1:${userId}:${deviceId}`);

/** The device id of a valid known-device cookie of `userId` on this request, or null (absent, forged, another admin's). */
export async function readKnownDevice(secret: string, request: AdminRequest, userId: number): Promise<string | null> {
  const value = request.cookies[deviceCookie(request.url, userId).name] as string | undefined;
  const [deviceId, mac, ...rest] = value?.split('.') ?? [];
  if (!deviceId || !mac || rest.length > 0 || !/^[A-Za-z0-9_-]{22}$/.test(deviceId)) return null;
  const signature = fromBase64Url(mac);
  if (!signature) return null;
  const valid = await crypto.subtle.verify('HMAC', await knownDeviceKey(secret), signature, signedText(userId, deviceId));
  return valid ? deviceId : null;
}

/**
 * After a successful sign-in: the cookie marking this browser as a known device of `userId` (keeping
 * its id when it was one already, so the cookie is renewed, not replaced). Long-lived, HttpOnly, SameSite=Strict.
 */
export async function knownDeviceCookie(secret: string, requestUrl: string, userId: number, deviceId: string | null): Promise<CookieToSet> {
  const id = deviceId ?? bytesToBase64Url(crypto.getRandomValues(new Uint8Array(16)));
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', await knownDeviceKey(secret), signedText(userId, id)));
  return { ...deviceCookie(requestUrl, userId), value: `${id}.${bytesToBase64Url(mac)}`, maxAge: KNOWN_DEVICE_TTL_SECONDS };
}

/** Whom a password check of `userId` is counted against (login-throttle.ts): this browser when it is a known device, else its network. */
export async function loginSubject(secret: string, request: AdminRequest, userId: number | undefined): Promise<LoginSubject> {
  const device = userId === undefined ? null : await readKnownDevice(secret, request, userId);
  return device ? { device } : { network: await hashIp(request.network, secret) };
}
