import { defaultContent } from '#core/content/default-content';
import type { SiteContent } from '#core/content/schema';
import { getDb } from '../../db/client';
import type { Bindings } from '../../env';
import { contentOfVersion, DEFAULT_VERSION, getPublished } from './store';

// Which content is live, for every reader: the public pages (./published-pages.ts) and what the
// worker says about the firm (e-mails, invites, the chat, the newsletter), read here and nowhere
// else (docs/decisions/0013-content-as-a-versioned-document.md). publishedContent(env) is the seam;
// its callers pass the document down to pure builders.
//
// Which version is current is ONE pointer in KV (PAGES), written on every publish and restore:
// reading it costs no D1 call, so a visitor's submission stays ONE D1 call
// (worker/db/one-call-write.ts). A version never changes once published, so its parsed document is
// kept per isolate; D1 is read only when the pointer names a version this isolate has not read
// yet. No pointer means nothing was published: the defaults, without a read. An isolate keeps the
// pointer it read for POINTER_MEMO_MS, so a busy isolate reads KV once in that time rather than
// on every page, form and e-mail. KV shows a new pointer everywhere within POINTER_CACHE_TTL, so a
// publish is seen everywhere within the two together (60 s, docs/decisions/0016); the isolate that
// published sees it at once.

/**
 * The pointer to the published version (KV PAGES), which publish and restore write
 * (worker/services/content/published.ts, pointAtPublished). Without one nothing was published:
 * version 1, the defaults, with no D1 read. It never expires: the public pages and everything the
 * worker says about the firm read this one pointer.
 */
export const CONTENT_POINTER_KEY = 'content:published-version';

/**
 * How long a location keeps the pointer it read (KV cacheTtl, seconds; KV's least is 30). With the
 * isolate's copy (POINTER_MEMO_MS), a publish is seen everywhere within 60 s.
 */
export const POINTER_CACHE_TTL = 50;

/**
 * How long an isolate keeps the pointer it read before reading KV again (ms). Every public page,
 * form submission and e-mail needs the version; without this, each would wait for a KV read.
 */
export const POINTER_MEMO_MS = 10_000;

/** The pointer this isolate read (or wrote) last, from which namespace, and until when it holds. */
let memo: { pages: KVNamespace; version: number; until: number } | null = null;

/** Keeps `version` as `pages`' pointer for POINTER_MEMO_MS; answers it. */
function keepPointer(pages: KVNamespace, version: number): number {
  memo = { pages, version, until: Date.now() + POINTER_MEMO_MS };
  return version;
}

/** Records `version` as the published one (after a publish or a restore committed). */
export async function setPublishedVersion(env: Pick<Env, 'PAGES'>, version: number): Promise<void> {
  await env.PAGES.put(CONTENT_POINTER_KEY, String(version));
  keepPointer(env.PAGES, version);
}

/** The published version, as the pointer names it; version 1 (the defaults) without one. */
export async function publishedVersion(env: Pick<Env, 'PAGES'>): Promise<number> {
  if (memo?.pages === env.PAGES && Date.now() < memo.until) return memo.version;
  const pointer = await env.PAGES.get(CONTENT_POINTER_KEY, { cacheTtl: POINTER_CACHE_TTL });
  const read = pointer === null ? Number.NaN : Number(pointer);
  return keepPointer(env.PAGES, Number.isInteger(read) && read >= DEFAULT_VERSION ? read : DEFAULT_VERSION);
}

/**
 * Forgets the pointer this isolate read: for the worker tests' harness, which empties KV after each
 * test (tests/harness/worker/apply-migrations.ts), so the next test reads what it finds.
 */
export function forgetPublishedPointer(): void {
  memo = null;
}

export type ContentEnv = Pick<Bindings, 'DB' | 'PAGES'>;

let cached: { version: number; content: SiteContent } | null = null;

/** The published content document: the defaults until a version is published. */
export async function publishedContent(env: ContentEnv): Promise<SiteContent> {
  const version = await publishedVersion(env).catch((error: unknown) => {
    console.error('Content pointer unreadable, reading D1', String(error));
    return null;
  });
  if (version === DEFAULT_VERSION) return defaultContent;
  if (version !== null && cached?.version === version) return cached.content;
  const db = getDb(env.DB);
  const content = version === null ? (await getPublished(db)).content : await contentOfVersion(db, version);
  if (version !== null) cached = { version, content };
  return content;
}

/**
 * After a publish or a restore: reads the new version once, keeps it for this isolate and points
 * every reader at it. The version is committed in D1 whatever happens here; a failed pointer write
 * is logged, and the next publish or restore writes it again.
 */
export async function pointAtPublished(env: ContentEnv): Promise<void> {
  const published = await getPublished(getDb(env.DB));
  cached = { version: published.version, content: published.content };
  try {
    await setPublishedVersion(env, published.version);
  } catch (error) {
    console.error('Could not point the site at the published version', published.version, String(error));
  }
}
