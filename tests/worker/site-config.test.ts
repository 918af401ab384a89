import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { siteConfig } from '../../worker/routes/site-config';
import { call } from './helpers';

describe('GET /api/site-config', () => {
  it('names no Tag Manager container when GTM_ID is not configured', async () => {
    const res = await call('/api/site-config');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ gtmId: null });
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
  });

  it('passes a configured container id through to the cookie banner', async () => {
    const res = await siteConfig.request('/', {}, { ...env, GTM_ID: 'GTM-ABC1234' });
    expect(await res.json()).toEqual({ gtmId: 'GTM-ABC1234' });
  });

  it('ignores a GTM_ID that is not a container id, so nothing odd reaches a script URL', async () => {
    for (const bad of ['GTM-ABC1234"><script>', 'UA-12345-1', 'gtm-abc1234', '']) {
      const res = await siteConfig.request('/', {}, { ...env, GTM_ID: bad });
      expect(await res.json(), bad).toEqual({ gtmId: null });
    }
  });
});
