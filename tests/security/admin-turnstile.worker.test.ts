import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import worker from '../../worker/index';
import { client, ORIGIN, signIn } from '../harness/worker/helpers';

// GET /api/admin/turnstile: whether Turnstile guards the public forms, for the admin panel's
// warning (web/features/admin/components/turnstile-warning.tsx). Only whether each part is set.

const SITE_KEY = '0x4AAAAAAAB-example_key';

async function statusWith(settings: { TURNSTILE_SECRET?: string; TURNSTILE_SITE_KEY?: string }, cookie: string) {
  const ctx = createExecutionContext();
  const res = await worker.fetch(new Request(`${ORIGIN}/api/admin/turnstile`, { headers: { cookie } }), { ...env, ...settings }, ctx);
  await waitOnExecutionContext(ctx);
  expect(res.status).toBe(200);
  return res.json();
}

describe('GET /api/admin/turnstile', () => {
  it('needs a session', async () => {
    expect((await client().api.admin.turnstile.$get()).status).toBe(401);
  });

  it('says which part of Turnstile is set, never its value', async () => {
    const cookie = await signIn();
    expect(await statusWith({ TURNSTILE_SECRET: '', TURNSTILE_SITE_KEY: '' }, cookie)).toEqual({ secretSet: false, siteKeySet: false });
    expect(await statusWith({ TURNSTILE_SECRET: 'secret-value', TURNSTILE_SITE_KEY: '' }, cookie)).toEqual({ secretSet: true, siteKeySet: false });
    expect(await statusWith({ TURNSTILE_SECRET: '', TURNSTILE_SITE_KEY: SITE_KEY }, cookie)).toEqual({ secretSet: false, siteKeySet: true });
    const both = await statusWith({ TURNSTILE_SECRET: 'secret-value', TURNSTILE_SITE_KEY: SITE_KEY }, cookie);
    expect(both).toEqual({ secretSet: true, siteKeySet: true });
    expect(JSON.stringify(both)).not.toContain('secret-value');
    // Something that is not a site key counts as none, as it does for the forms (/api/site-config).
    expect(await statusWith({ TURNSTILE_SECRET: '', TURNSTILE_SITE_KEY: 'not-a-key' }, cookie)).toEqual({ secretSet: false, siteKeySet: false });
  });
});
