import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import worker from '../../worker/index';
import { newSessionId, postChat } from '../harness/worker/chat-helpers';
import { ORIGIN } from '../harness/worker/helpers';
import { fakeMailChannels, mailChannelsEnv } from '../harness/worker/mailchannels-fake';
import { bookingRequest, nextWeekday } from '../harness/worker/submission-helpers';

// The public forms answer as soon as their row is committed; the e-mails they cause are
// logged as 'queued' before the answer and handed to MailChannels after it, within the same
// invocation (ctx.waitUntil), and their outcome still reaches the admin's e-mail log.

/** A MailChannels whose every answer waits until the test releases it (with a response, or a network failure). */
function gatedMailChannels() {
  let release!: (answer: Response | 'network-error') => void;
  const gate = new Promise<Response | 'network-error'>((resolve) => (release = resolve));
  const requests = fakeMailChannels(async () => {
    const answer = await gate;
    // What the runtime's fetch throws when the connection drops.
    if (answer === 'network-error') throw new TypeError('Network connection lost.');
    return answer.clone();
  });
  return { requests, release };
}

// The transport's own timeout far away: only the gate decides when MailChannels answers.
const testEnv = () => mailChannelsEnv({ MAILCHANNELS_TIMEOUT_MS: '60000' });

/** Calls the worker and returns the answer without waiting for the invocation's waitUntil work. */
function send(path: string, body: unknown, ip = '203.0.113.41') {
  const ctx = createExecutionContext();
  const answer = Promise.resolve(
    worker.fetch(
      new Request(`${ORIGIN}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: ORIGIN, 'cf-connecting-ip': ip },
        body: JSON.stringify(body),
      }),
      testEnv(),
      ctx,
    ),
  );
  return { answer, ctx };
}

/** The answer, or 'still waiting' when it has not come within the time given. */
async function answerWithin(answer: Promise<Response>, ms = 2000): Promise<Response | 'still waiting'> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'still waiting'>((resolve) => (timer = setTimeout(() => resolve('still waiting'), ms)));
  try {
    return await Promise.race([answer, late]);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}

const mailLog = async () =>
  (await env.DB.prepare('SELECT kind, status, transport, error FROM email_log ORDER BY id').all<{ kind: string; status: string; transport: string; error: string | null }>())
    .results;

const contactBody = { name: 'Pat Gate', email: 'pat@example.com', phone: '', message: 'Do you prepare returns for small partnerships?' };

/** Each visitor form: its path, a valid body, and the e-mails it causes. */
const forms: { name: string; path: string; body: () => Promise<unknown>; kinds: string[] }[] = [
  { name: 'contact form', path: '/api/contact', body: async () => contactBody, kinds: ['contact-notification'] },
  {
    name: 'booking',
    path: '/api/appointments',
    body: async () => bookingRequest(nextWeekday()),
    kinds: ['appointment-confirmation', 'appointment-notification'],
  },
  {
    name: 'chat hand-off',
    path: '/api/chat/handoff',
    body: async () => {
      const sessionId = newSessionId();
      expect((await postChat({ message: 'What are your office hours?', sessionId }, { env: { AI: undefined } })).status).toBe(200);
      return { sessionId, name: 'Pat Gate', email: 'pat@example.com', phone: '', note: 'Please call me.' };
    },
    kinds: ['contact-notification'],
  },
];

describe.each(forms)('$name answers before MailChannels does', ({ path, body, kinds }) => {
  it('answers 201 while the transport is still pending, with the mail logged as queued; sent once MailChannels accepts', async () => {
    const { requests, release } = gatedMailChannels();
    const { answer, ctx } = send(path, await body());

    const res = await answerWithin(answer);
    expect(res, 'the answer waited for MailChannels').not.toBe('still waiting');
    expect((res as Response).status).toBe(201);
    // Logged before the answer: the admin sees every message even if the invocation ended now.
    expect((await mailLog()).map((m) => [m.kind, m.status]).sort()).toEqual(kinds.map((k) => [k, 'queued']).sort());

    release(Response.json({ request_id: 'req-gate' }, { status: 202 }));
    await waitOnExecutionContext(ctx);
    expect(requests).toHaveLength(kinds.length);
    const log = await mailLog();
    expect(log.map((m) => [m.kind, m.status, m.transport]).sort()).toEqual(kinds.map((k) => [k, 'sent', 'mailchannels']).sort());
  });

  it.each([
    ['a refused hand-over', () => new Response('upstream unavailable', { status: 500 }), /MailChannels answered 500/],
    ['a connection that fails', () => 'network-error' as const, /Could not reach MailChannels/],
  ])('%s still shows as failed in the e-mail log, after a 201', async (_name, outcome, error) => {
    const { release } = gatedMailChannels();
    const { answer, ctx } = send(path, await body());
    const res = await answerWithin(answer);
    expect(res).not.toBe('still waiting');
    expect((res as Response).status).toBe(201);

    release(outcome());
    await waitOnExecutionContext(ctx);
    const log = await mailLog();
    expect(log).toHaveLength(kinds.length);
    for (const entry of log) {
      expect(entry.status).toBe('failed');
      expect(entry.error).toMatch(error);
    }
  });
});

describe('the two form claims in one D1 call', () => {
  it('a request the per-network window refuses takes nothing from the daily cap', async () => {
    const limited = { ...env, SUBMISSIONS_PER_IP_PER_WINDOW: '2' };
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const ctx = createExecutionContext();
      const res = await worker.fetch(
        new Request(`${ORIGIN}/api/contact`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: ORIGIN, 'cf-connecting-ip': '203.0.113.77' },
          body: JSON.stringify(contactBody),
        }),
        limited,
        ctx,
      );
      await waitOnExecutionContext(ctx);
      statuses.push(res.status);
    }
    expect(statuses).toEqual([201, 201, 429, 429, 429]);
    const daily = await env.DB.prepare("SELECT count FROM daily_counters WHERE counter = 'contact'").first<{ count: number }>();
    expect(daily!.count).toBe(2);
    const window = await env.DB.prepare('SELECT count FROM submission_windows').first<{ count: number }>();
    expect(window!.count).toBe(2);
  });
});
