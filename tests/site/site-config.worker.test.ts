import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { siteConfig } from '../../worker/routes/site-config';
import { client } from '../harness/worker/helpers';
import { callWithEnv } from '../harness/worker/submission-helpers';

describe('GET /api/site-config', () => {
  it('names no Tag Manager container when GTM_ID is not configured', async () => {
    const res = await client().api['site-config'].$get();
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ gtmId: null, turnstileSiteKey: null });
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
  });

  it('passes a configured container id through to the cookie banner', async () => {
    const res = await siteConfig.request('/', {}, { ...env, GTM_ID: 'GTM-ABC1234' });
    expect(await res.json()).toEqual({ gtmId: 'GTM-ABC1234', turnstileSiteKey: null });
  });

  it('ignores a GTM_ID that is not a container id, so nothing odd reaches a script URL', async () => {
    for (const bad of ['GTM-ABC1234"><script>', 'UA-12345-1', 'gtm-abc1234', '']) {
      const res = await siteConfig.request('/', {}, { ...env, GTM_ID: bad });
      expect(await res.json(), bad).toEqual({ gtmId: null, turnstileSiteKey: null });
    }
  });

  it('passes a configured Turnstile site key to the forms, and ignores anything that is not one', async () => {
    const res = await siteConfig.request('/', {}, { ...env, TURNSTILE_SITE_KEY: '0x4AAAAAAABkMYinukE8nzY' });
    expect(await res.json()).toEqual({ gtmId: null, turnstileSiteKey: '0x4AAAAAAABkMYinukE8nzY' });
    for (const bad of ['', '0x4AAA"><script>', 'not-a-key', '9x4AAAAAAABkMYinukE8nzY']) {
      const refused = await siteConfig.request('/', {}, { ...env, TURNSTILE_SITE_KEY: bad });
      expect(await refused.json(), bad).toEqual({ gtmId: null, turnstileSiteKey: null });
    }
  });
});

describe('Turnstile in the content security policy', () => {
  it('public answers allow challenges.cloudflare.com (script, frame, connect) only when a site key is configured', async () => {
    const without = (await client().api.health.$get()).headers.get('content-security-policy')!;
    expect(without).not.toContain('challenges.cloudflare.com');
    const csp = (await callWithEnv({ TURNSTILE_SITE_KEY: '0x4AAAAAAABkMYinukE8nzY' }, '/api/health')).headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self' https://challenges.cloudflare.com;");
    expect(csp).toContain("connect-src 'self' https://challenges.cloudflare.com;");
    expect(csp).toContain('frame-src https://www.google.com https://challenges.cloudflare.com;');
  });

  it('the admin keeps its first-party-only policy with a site key configured', async () => {
    const csp = (await callWithEnv({ TURNSTILE_SITE_KEY: '0x4AAAAAAABkMYinukE8nzY' }, '/api/admin/session')).headers.get('content-security-policy')!;
    expect(csp).not.toContain('challenges.cloudflare.com');
  });
});
