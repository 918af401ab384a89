import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { call, signIn } from '../harness/worker/helpers';

// The audit trail names a record beside its id while the record exists (docs/product.md §6.9):
// the person of an account or an invitation, a subscriber's address, a newsletter's subject. A
// visitor's records stay ids, and an erased subscriber has no name left to show.

interface Entry {
  action: string;
  record: string | null;
  recordName: string | null;
}

const entries = async (cookie: string) => ((await (await call('/api/admin/audit', { cookie })).json()) as { entries: Entry[] }).entries;
const idOf = async (query: string) => (await env.DB.prepare(`${query} RETURNING id`).first<{ id: number }>())!.id;

describe('the audit trail’s record names', () => {
  it('names accounts, invitations and subscribers while they exist; never a visitor’s record; nothing for an erased subscriber', async () => {
    const cookie = await signIn();
    expect((await call('/api/admin/users/invitations', { cookie, body: { name: 'Pat Partner', email: 'pat@example.com', role: 'staff', canSendNewsletters: false } })).status).toBe(201);
    const kept = await idOf("INSERT INTO newsletter_subscriptions (email, active) VALUES ('kept@example.com', 'false')");
    const erased = await idOf("INSERT INTO newsletter_subscriptions (email, active) VALUES ('gone@example.com', 'false')");
    expect((await call(`/api/admin/subscribers/${kept}/resend-confirmation`, { cookie, method: 'POST' })).status).toBe(200);
    expect((await call(`/api/admin/subscribers/${erased}`, { cookie, method: 'DELETE' })).status).toBe(200);
    const message = await idOf("INSERT INTO contact_messages (name, email, message) VALUES ('Vera Visitor', 'vera@example.com', 'A question')");
    expect((await call(`/api/admin/contact-messages/${message}`, { cookie, method: 'PATCH', body: { read: true } })).status).toBe(200);

    const trail = await entries(cookie);
    const byAction = (action: string) => trail.find((e) => e.action === action)!;
    expect(byAction('auth.sign-in').recordName).toBe('admin');
    expect(byAction('user.invite').recordName).toBe('Pat Partner');
    expect(byAction('subscriber.resend-confirmation')).toMatchObject({ record: `subscriber:${kept}`, recordName: 'kept@example.com' });
    expect(byAction('subscriber.erase')).toMatchObject({ record: `subscriber:${erased}`, recordName: null });
    expect(byAction('contact.mark-read')).toMatchObject({ record: `contact-message:${message}`, recordName: null });
    expect(JSON.stringify(trail)).not.toContain('Vera');
  });
});
