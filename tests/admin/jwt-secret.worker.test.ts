import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { afterEach, describe, expect, it, vi } from 'vitest';
import worker from '../../worker/index';
import { ADMIN, cronTick, ORIGIN } from '../harness/worker/helpers';

// A deployment without a usable JWT_SECRET (README, "Deploying to Cloudflare") fails fast: the API
// answers 503 with a JSON message and the log says what to do, instead of signing with a weak key
// or failing later inside a sign-in with a bare 500.

async function fetchWith(secret: string | undefined, path: string, init: RequestInit = {}): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await worker.fetch(new Request(`${ORIGIN}${path}`, init), { ...env, JWT_SECRET: secret as string }, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

const signInRequest = (): RequestInit => ({
  method: 'POST',
  headers: { origin: ORIGIN, 'content-type': 'application/json', 'cf-connecting-ip': '203.0.113.90' },
  body: JSON.stringify(ADMIN),
});

const loggedErrors = (spy: { mock: { calls: unknown[][] } }) => spy.mock.calls.map((args) => args.map(String).join(' '));

afterEach(() => {
  vi.restoreAllMocks();
});

describe('JWT_SECRET', () => {
  it('missing: every API route answers 503 JSON and the log names the secret and the fix', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    for (const [path, init] of [['/api/health', {}], ['/api/admin/login', signInRequest()], ['/api/site-config', {}]] as const) {
      const res = await fetchWith(undefined, path, init);
      expect(res.status, path).toBe(503);
      expect(res.headers.get('content-type')).toContain('application/json');
      expect(await res.json()).toEqual({ message: 'The site is not configured yet. Please try again later.' });
      expect(res.headers.getSetCookie()).toEqual([]);
    }
    const lines = loggedErrors(errors);
    expect(lines).toHaveLength(3);
    for (const line of lines) {
      expect(line).toContain('JWT_SECRET is not set');
      expect(line).toContain('wrangler secret put JWT_SECRET');
    }
  });

  it('shorter than 32 characters: refused the same way, the log gives the length', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const res = await fetchWith('x'.repeat(31), '/api/admin/login', signInRequest());
    expect(res.status).toBe(503);
    expect(res.headers.getSetCookie()).toEqual([]);
    expect(loggedErrors(errors).join('\n')).toContain('JWT_SECRET is shorter than 32 characters (31)');
  });

  it('of 32 characters: the API answers', async () => {
    const res = await fetchWith('y'.repeat(32), '/api/health');
    expect(res.status).toBe(200);
  });

  it('missing: the cron tick is skipped with the same log line, nothing sent', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    await cronTick(Date.now(), { ...env, JWT_SECRET: '' });
    expect(loggedErrors(errors)).toEqual([expect.stringContaining('Scheduled tick skipped: JWT_SECRET is not set')]);
  });
});
