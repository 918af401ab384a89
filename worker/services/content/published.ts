import { defaultContent } from '#core/content/default-content';
import type { SiteContent } from '#core/content/schema';
import { getDb } from '../../db/client';
import type { Bindings } from '../../env';
import { getPublished, type PublishedContent } from './store';

// What the worker says about the firm (e-mails, invites, the chat, the newsletter) comes from the
// published content document (docs/decisions/0013-content-as-a-versioned-document.md), read here
// and nowhere else: publishedContent(env) is the one seam, and its callers pass the document down to
// pure builders.
//
// A version never changes once published, so the parsed document is kept per isolate under the
// version's key (its number and publication time: a test's database reset reuses numbers). Which
// version is current is a pointer in KV (THROTTLE), written on every publish and restore: reading it
// costs no D1 call, so a visitor's submission stays ONE D1 call (worker/db/one-call-write.ts), and
// D1 is read only when the pointer names a version this isolate has not parsed yet. No pointer means
// nothing was published: the defaults, without a read. KV shows a new pointer everywhere within
// about 60 s; this isolate sees its own publish at once.

/** The firm's facts as published: what e-mails, invites and the chat state about it. */
export type FirmFacts = SiteContent['firm'];

/** "2000 Corporate Drive, Suite 250, Warrendale, PA 15086": the one-line address e-mails and invites show. */
export const firmAddressLine = (firm: Pick<FirmFacts, 'contact'>) => {
  const { street, city, region, postalCode } = firm.contact.address;
  return `${street}, ${city}, ${region} ${postalCode}`;
};

/** The KV key (THROTTLE) naming the published version. */
export const CONTENT_POINTER_KEY = 'content:published-version';

type ContentEnv = Pick<Bindings, 'DB' | 'THROTTLE'>;

const keyOf = (published: Pick<PublishedContent, 'version' | 'publishedAt'>) => `${published.version}:${published.publishedAt?.getTime() ?? 0}`;

let cached: { key: string; content: SiteContent } | null = null;

/** The published content document: the defaults until a version is published. */
export async function publishedContent(env: ContentEnv): Promise<SiteContent> {
  const pointer = await env.THROTTLE.get(CONTENT_POINTER_KEY).catch((error: unknown) => {
    console.error('Content pointer unreadable, reading D1', String(error));
    return undefined;
  });
  if (pointer === null) return defaultContent;
  if (pointer !== undefined && cached?.key === pointer) return cached.content;
  const published = await getPublished(getDb(env.DB));
  cached = { key: keyOf(published), content: published.content };
  return published.content;
}

/**
 * After a publish or a restore: reads the new version once, keeps it for this isolate and points
 * every isolate at it.
 */
export async function pointAtPublished(env: ContentEnv): Promise<void> {
  const published = await getPublished(getDb(env.DB));
  cached = { key: keyOf(published), content: published.content };
  await env.THROTTLE.put(CONTENT_POINTER_KEY, cached.key);
}
