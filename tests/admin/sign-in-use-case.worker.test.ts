import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { getDb } from '../../worker/db/client';
import { type SignInRequest, signIn } from '../../worker/services/admin-auth';
import { ADMIN } from '../harness/worker/helpers';

// Sign-in is one use case (worker/services/admin-auth/sign-in.ts), called without a request object:
// the route picks the address, network and cookies and sets the cookies the result names.

const request = (network: string, cookies: Record<string, string> = {}): SignInRequest => ({
  url: 'https://cpa.example/api/admin/login',
  network,
  cookies,
  userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
  country: 'US',
});

describe('signIn, the one sign-in', () => {
  it('takes the request as plain values and answers why not, or the session and known-device cookies to set', async () => {
    const db = getDb(env.DB);
    expect(await signIn(env, db, request('192.0.2.60'), { username: ADMIN.username, password: 'not-the-password' })).toEqual({ ok: false, reason: 'invalid-credentials' });

    const first = await signIn(env, db, request('192.0.2.61'), ADMIN);
    if (!first.ok) throw new Error(`sign-in refused: ${first.reason}`);
    expect(first.view).toMatchObject({ authenticated: true, username: ADMIN.username, mustEnrolTwoFactor: false });
    const [session, device] = first.cookies;
    expect(session).toMatchObject({ name: '__Host-admin_session', secure: true });
    expect(session.maxAge).toBeGreaterThan(8 * 60 * 60 - 60);
    expect(session.maxAge).toBeLessThanOrEqual(8 * 60 * 60);
    expect(device.name).toMatch(/^__Host-admin_device_\d+$/);
    const row = await env.DB.prepare('SELECT device, country FROM admin_sessions ORDER BY created_at DESC LIMIT 1').first();
    expect(row).toEqual({ device: 'Chrome on Windows', country: 'US' });

    // The browser that carries the known-device cookie keeps its device id: the cookie is renewed, not replaced.
    const again = await signIn(env, db, request('192.0.2.62', { [device.name]: device.value }), ADMIN);
    if (!again.ok) throw new Error(`sign-in refused: ${again.reason}`);
    expect(again.cookies[1].value.split('.')[0]).toBe(device.value.split('.')[0]);
  });
});
