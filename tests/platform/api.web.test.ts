import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError, errorMessage, isUnauthorized, okJson } from '../../web/lib/api';

// The typed client's run-time side (web/lib/api.ts): the requests it sends and the errors it
// raises. The routes' side is tested in the *.worker.test.ts files; the pair end to end in the *.e2e.test.ts ones.

type Sent = { url: string; method: string; headers: Headers; body: string | undefined; credentials: RequestCredentials | undefined };

/** Replaces fetch with one that records each request and answers `answer`. */
function answerWith(answer: () => Response): Sent[] {
  const sent: Sent[] = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    sent.push({ url, method: init.method!, headers: new Headers(init.headers), body: init.body as string | undefined, credentials: init.credentials });
    return answer();
  });
  return sent;
}

const json = (body: unknown, status = 200, statusText = '') => new Response(JSON.stringify(body), { status, statusText, headers: { 'content-type': 'application/json' } });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the typed client sends what docs/product.md §11 describes', () => {
  it('POSTs JSON with cookies to the route path', async () => {
    const sent = answerWith(() => json({ message: 'Thank you' }, 201));
    const answer = await okJson(api.contact.$post({ json: { name: 'Ann', email: 'ann@example.com', phone: '', message: 'Hello there, firm.' } }));
    expect(answer).toEqual({ message: 'Thank you' });
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ url: '/api/contact', method: 'POST', credentials: 'include' });
    expect(sent[0].headers.get('content-type')).toBe('application/json');
    expect(JSON.parse(sent[0].body!)).toEqual({ name: 'Ann', email: 'ann@example.com', phone: '', message: 'Hello there, firm.' });
  });

  it('puts the query in the URL, encoded, and sends no body or content type with a GET', async () => {
    const sent = answerWith(() => json({ valid: false }));
    await api.newsletter.unsubscribe.$get({ query: { token: 'a b&c=d' } });
    await api.appointments.availability.$get({ query: { date: '2026-07-14' } });
    expect(sent.map((s) => [s.method, s.url])).toEqual([
      ['GET', '/api/newsletter/unsubscribe?token=a+b%26c%3Dd'],
      ['GET', '/api/appointments/availability?date=2026-07-14'],
    ]);
    expect(sent.every((s) => s.body === undefined && !s.headers.has('content-type') && s.credentials === 'include')).toBe(true);
  });

  it('fills path parameters, including the scheduler action with its pattern', async () => {
    const sent = answerWith(() => json({ message: 'ok' }));
    await api.admin['contact-messages'][':id'].$patch({ param: { id: '7' }, json: { read: true } });
    await api.admin.scheduler[':action{start|stop|trigger}'].$post({ param: { action: 'trigger' } });
    await api.admin.logout.$post();
    expect(sent.map((s) => [s.method, s.url, s.body])).toEqual([
      ['PATCH', '/api/admin/contact-messages/7', '{"read":true}'],
      ['POST', '/api/admin/scheduler/trigger', undefined],
      ['POST', '/api/admin/logout', undefined],
    ]);
  });
});

describe('ApiError: one error for an answer that is not OK', () => {
  it("keeps the spec's 'status: body' message, the status and the parsed body", async () => {
    answerWith(() => json({ message: 'Too many submissions' }, 429, 'Too Many Requests'));
    const error = await okJson(api.contact.$post({ json: { name: 'A', email: 'a@example.com', message: 'Hello there, firm.' } })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 429, message: '429: {"message":"Too many submissions"}', body: { message: 'Too many submissions' } });
    expect((error as ApiError).serverMessage).toBe('Too many submissions');
    expect(errorMessage(error, 'fallback')).toBe('Too many submissions');
  });

  it('uses the status text when the body is empty, and keeps a plain-text body as text', async () => {
    answerWith(() => new Response('', { status: 502, statusText: 'Bad Gateway' }));
    const empty = (await okJson(api.admin.session.$get()).catch((e: unknown) => e)) as ApiError;
    expect(empty.message).toBe('502: Bad Gateway');
    expect(errorMessage(empty, 'fallback')).toBe('Bad Gateway');

    answerWith(() => new Response('upstream down', { status: 503 }));
    const text = (await okJson(api.admin.session.$get()).catch((e: unknown) => e)) as ApiError;
    expect(text).toMatchObject({ status: 503, message: '503: upstream down', body: 'upstream down', serverMessage: undefined });
    expect(errorMessage(text, 'fallback')).toBe('upstream down');
  });

  it('tells an ended session apart from other failures', async () => {
    answerWith(() => json({ message: 'Unauthorized' }, 401, 'Unauthorized'));
    const unauthorized = await okJson(api.admin.subscribers.$get()).catch((e: unknown) => e);
    expect(isUnauthorized(unauthorized)).toBe(true);
    expect(isUnauthorized(new ApiError(403, 'Forbidden', 'Forbidden'))).toBe(false);
    expect(isUnauthorized(new Error('401: looks like one'))).toBe(false);
  });

  it('shows a failure before any answer by its own message, and the fallback when there is none', async () => {
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    const offline = await okJson(api.chat.$post({ json: { message: 'Hi', sessionId: crypto.randomUUID() } })).catch((e: unknown) => e);
    expect(offline).not.toBeInstanceOf(ApiError);
    expect(errorMessage(offline, 'fallback')).toBe('Failed to fetch');
    expect(errorMessage('not an error', 'fallback')).toBe('fallback');
    expect(errorMessage(new ApiError(500, '', ''), 'fallback')).toBe('fallback');
  });
});
