import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localMailDir, readMailbox, startLocalMailbox } from '../../scripts/lib/local-mailbox';
import { mailChannelsPayload } from '../../worker/services/email/mailchannels';

// Local development's mailbox (scripts/lib/local-mailbox.ts): the worker hands a message over as
// MailChannels would receive it, and the sink writes one .eml file with all of it, which the
// reader (and any mail client) opens again.

const dir = mkdtempSync(join(tmpdir(), 'cpa-mailbox-'));
let mailbox: Awaited<ReturnType<typeof startLocalMailbox>>;

beforeAll(async () => {
  mailbox = await startLocalMailbox(join(dir, 'mail'));
});

afterAll(async () => {
  await mailbox?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const invite = 'BEGIN:VCALENDAR\r\nMETHOD:REQUEST\r\nBEGIN:VEVENT\r\nUID:appointment-x@example.com\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n';
const longLine = `A paragraph that runs on ${'and on '.repeat(200)}to the end, café.`;

describe('the local mailbox', () => {
  it('lives in mail/ under LOCAL_STATE_DIR, else in the checkout\'s .wrangler/mail', () => {
    expect(localMailDir('/repo/', { LOCAL_STATE_DIR: '/tmp/state' })).toBe('/tmp/state/mail');
    expect(localMailDir('/repo/', {})).toBe('/repo/.wrangler/mail');
  });

  it('writes each message as one .eml file: headers, text and HTML parts, the attachment; read back whole', async () => {
    const config = { apiKey: '', baseUrl: mailbox.url, from: { email: 'office@northgatecpa.example', name: 'Northgate CPA' }, timeoutMs: 1000 };
    const payload = mailChannelsPayload(config, {
      to: 'bo@example.com',
      toName: 'Bö Visitor',
      replyTo: 'office@northgatecpa.example',
      subject: 'Your appointment – confirmed',
      text: `Cancel: http://localhost:8787/appointment/cancel?token=abc.DEF_123-xyz\n${longLine}`,
      html: '<p><a href="http://localhost:8787/appointment/cancel?token=abc.DEF_123-xyz">Cancel</a></p>',
      kind: 'appointment-status',
      headers: { 'List-Unsubscribe': '<http://localhost:8787/api/newsletter/unsubscribe?token=t0k3n>' },
      attachments: [{ filename: 'appointment.ics', contentType: 'text/calendar; charset=utf-8; method=REQUEST', content: Buffer.from(invite).toString('base64') }],
    });
    const res = await fetch(`${mailbox.url}/send?kind=appointment-status`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload) });
    expect(res.status).toBe(202);

    const files = readdirSync(join(dir, 'mail'));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^\d{4}-\d{2}-\d{2}T[\d-]+Z-0001-appointment-status\.eml$/);
    const eml = readFileSync(join(dir, 'mail', files[0]), 'utf8');
    expect(eml).toMatch(/^From: "Northgate CPA" <office@northgatecpa\.example>\r\n/);
    expect(eml).toContain('\r\nMIME-Version: 1.0\r\n');
    expect(eml).toContain('Content-Type: multipart/mixed;');
    expect(eml).toContain('Content-Type: multipart/alternative;');
    // A part whose lines fit stays readable as it is (a developer can copy the link from the file);
    // one with a longer line is quoted-printable.
    expect(eml).toContain('Content-Transfer-Encoding: 8bit\r\n\r\n<p><a href="http://localhost:8787/appointment/cancel?token=abc.DEF_123-xyz">Cancel</a></p>\r\n');
    expect(eml).toContain('Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n');
    expect(eml).toContain('Content-Disposition: attachment; filename="appointment.ics"');
    // No line longer than SMTP allows.
    expect(eml.split('\r\n').every((line) => Buffer.byteLength(line) <= 998)).toBe(true);

    const [message] = readMailbox(join(dir, 'mail'));
    expect(message).toMatchObject({
      kind: 'appointment-status',
      to: ['bo@example.com'],
      subject: 'Your appointment – confirmed',
      html: '<p><a href="http://localhost:8787/appointment/cancel?token=abc.DEF_123-xyz">Cancel</a></p>',
    });
    expect(message.text).toBe(`Cancel: http://localhost:8787/appointment/cancel?token=abc.DEF_123-xyz\n${longLine}`);
    expect(message.headers['to']).toBe('Bö Visitor <bo@example.com>');
    expect(message.headers['reply-to']).toBe('office@northgatecpa.example');
    expect(message.headers['list-unsubscribe']).toBe('<http://localhost:8787/api/newsletter/unsubscribe?token=t0k3n>');
    expect(message.headers['message-id']).toMatch(/^<[0-9a-f]{32}@local\.mailbox>$/);
    expect(message.attachments).toEqual([{ filename: 'appointment.ics', contentType: 'text/calendar; charset=utf-8; method=REQUEST; name="appointment.ics"', content: Buffer.from(invite) }]);
  });

  it('refuses anything but a POST to /send, and a body that is not a message', async () => {
    expect((await fetch(`${mailbox.url}/send`)).status).toBe(404);
    expect((await fetch(`${mailbox.url}/other`, { method: 'POST', body: '{}' })).status).toBe(404);
    expect((await fetch(`${mailbox.url}/send`, { method: 'POST', body: 'not json' })).status).toBe(400);
  });
});
