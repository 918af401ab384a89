import { env } from 'cloudflare:test';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { defaultContent } from '#core/content/default-content';
import type { SiteContent } from '#core/content/schema';
import { CONTENT_POINTER_KEY as POINTER_KEY, POINTER_CACHE_TTL, POINTER_MEMO_MS, publishedVersion } from '../../worker/services/content/published';
import { call, client, signIn } from '../harness/worker/helpers';

// docs/decisions/0016-published-content-serving.md: the public pages (and e-mails, invites, the chat) follow ONE pointer to the
// published version, read from KV (cached 50 s at a location, and kept 10 s by the isolate that
// read it, so a publish is seen within a minute everywhere), which publish and restore write;
// Preview is the admin's only.

async function publishEdit(cookie: string, basedOn: number, edit: (content: SiteContent) => void): Promise<number> {
  const content = structuredClone(defaultContent);
  edit(content);
  const saved = await call('/api/admin/content/draft', { method: 'PUT', body: { basedOn, content }, cookie });
  expect(saved.status).toBe(200);
  const { revision } = (await saved.json()) as { revision: number };
  const res = await client({ cookie }).api.admin.content.publish.$post({ json: { basedOn, revision } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { version: number }).version;
}

describe('the published-version pointer', () => {
  it('is read from KV with a cacheTtl KV accepts (30 s at least)', async () => {
    const reads: { key: string; options: unknown }[] = [];
    const pages = {
      get: (key: string, options: unknown) => {
        reads.push({ key, options });
        return Promise.resolve('3');
      },
    } as unknown as KVNamespace;
    expect(await publishedVersion({ PAGES: pages })).toBe(3);
    expect(reads).toEqual([{ key: POINTER_KEY, options: { cacheTtl: POINTER_CACHE_TTL } }]);
    expect(POINTER_CACHE_TTL).toBeGreaterThanOrEqual(30);
  });

  it('follows publish and restore; without one, nothing was published (version 1, no D1 read)', async () => {
    expect(await publishedVersion(env)).toBe(1);
    const cookie = await signIn();
    const published = await publishEdit(cookie, 1, (content) => {
      content.firm.contact.phone = '(724) 555-0188';
    });
    expect(published).toBe(2);
    expect(await env.PAGES.get(POINTER_KEY)).toBe('2');

    const restored = await client({ cookie }).api.admin.content.restore.$post({ json: { version: 1 } });
    expect(restored.status).toBe(200);
    expect(await env.PAGES.get(POINTER_KEY)).toBe('3');

    expect(await publishedVersion(env)).toBe(3);
  });

  describe('kept by the isolate that read it', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    /** A KV namespace holding only the pointer, counting its reads. */
    function countingPages(pointer: string) {
      const pages = { reads: 0, pointer, get: () => (pages.reads++, Promise.resolve(pages.pointer)) };
      return pages;
    }

    it('for POINTER_MEMO_MS: one KV read for every page, form and e-mail in that time', async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      const pages = countingPages('4');
      const env = { PAGES: pages as unknown as KVNamespace };
      for (let i = 0; i < 5; i++) expect(await publishedVersion(env)).toBe(4);
      expect(pages.reads).toBe(1);

      // Another isolate publishes: this one sees it once its copy runs out.
      pages.pointer = '5';
      vi.advanceTimersByTime(POINTER_MEMO_MS - 1);
      expect(await publishedVersion(env)).toBe(4);
      vi.advanceTimersByTime(1);
      expect(await publishedVersion(env)).toBe(5);
      expect(pages.reads).toBe(2);
    });

    it('never across namespaces, and a publish in this isolate is seen at once', async () => {
      const other = countingPages('7');
      expect(await publishedVersion({ PAGES: other as unknown as KVNamespace })).toBe(7);
      expect(await publishedVersion(env)).toBe(1);

      const published = await publishEdit(await signIn(), 1, (content) => {
        content.firm.contact.phone = '(724) 555-0177';
      });
      expect(published).toBe(2);
      expect(await publishedVersion(env)).toBe(2);
    });

    it('so a publish is seen everywhere within 60 s (the location cache and the isolate copy together)', () => {
      expect(POINTER_CACHE_TTL * 1000 + POINTER_MEMO_MS).toBeLessThanOrEqual(60_000);
    });
  });
});

describe('Preview', () => {
  it('is refused without a session', async () => {
    const res = await client().api.admin.content.preview.$get({ query: { path: '/faq' } });
    expect(res.status).toBe(401);
  });

  it('shows only the public pages', async () => {
    const cookie = await signIn();
    const res = await call('/api/admin/content/preview?path=/admin', { cookie });
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toContain('path must be a public page');
  });
});
