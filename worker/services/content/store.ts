import { desc, eq, sql } from 'drizzle-orm';
import { defaultContent } from '#core/content/default-content';
import { siteContentSchema, type SiteContent } from '#core/content/schema';
import type { Db } from '../../db/client';
import { insertWhen, previousChanged } from '../../db/granted-batch';
import { contentDraft, contentVersions } from '../../db/schema';
import { diffContent, type ContentChange } from './diff';
import { authorsAfterSave, reviewChanges, type ChangeAuthors, type ReviewChange } from './review';

// The firm's content as one versioned document (docs/decisions/0013-content-as-a-versioned-document.md).
// Published versions are rows of content_versions; version 1 is the repository's default content and
// has no row. The one draft (content_draft, id 1) records the version it was made from; every write
// is one statement or one batch that holds only while that version is still the latest, so two tabs
// or two admins can never overwrite each other's publish without being told (409).

/** The version of the default content, which a fresh install shows without a row. */
export const DEFAULT_VERSION = 1;
const DRAFT_ID = 1;

/** The latest published version number, as SQL (1 while nothing was published). */
const latestVersionSql = sql`coalesce((select max(${contentVersions.version}) from ${contentVersions}), ${DEFAULT_VERSION})`;

export interface PublishedContent {
  version: number;
  /** Null for version 1, the defaults nobody published. */
  publishedAt: Date | null;
  publishedBy: string | null;
  content: SiteContent;
}

export interface ContentDraft {
  basedOn: number;
  /** Counts the draft's saves; a publish names the one it showed (publishDraft). */
  revision: number;
  updatedAt: Date;
  updatedBy: string;
  content: SiteContent;
}

/** Who published the version now current: the body of a 409, so the screen can say what changed. */
export type CurrentVersion = Omit<PublishedContent, 'content'>;

export type ContentWriteResult<T> =
  | { ok: true; value: T }
  | { ok: false; reason: 'stale'; current: CurrentVersion }
  | { ok: false; reason: 'draft-changed'; draft: { updatedAt: Date; updatedBy: string; revision: number } | null }
  | { ok: false; reason: 'no-draft' }
  | { ok: false; reason: 'invalid'; issues: { path: PropertyKey[]; message: string }[] }
  | { ok: false; reason: 'not-found' };

/**
 * A stored document through today's schema: the public site gets only what passes it. A stored
 * version that no longer passes (the schema tightened since it was published) is logged and the
 * defaults are served instead of a page built from bad input.
 */
function parseStored(json: string, version: number): SiteContent | null {
  const result = siteContentSchema.safeParse(JSON.parse(json));
  if (result.success) return result.data;
  console.error('Stored content does not pass the schema', version, result.error.issues.slice(0, 3).map((i) => i.path.join('.')));
  return null;
}

async function latestRow(db: Db) {
  const [row] = await db.select().from(contentVersions).orderBy(desc(contentVersions.version)).limit(1);
  return row;
}

async function currentVersion(db: Db): Promise<CurrentVersion> {
  const row = await db
    .select({ version: contentVersions.version, publishedAt: contentVersions.publishedAt, publishedBy: contentVersions.publishedBy })
    .from(contentVersions)
    .orderBy(desc(contentVersions.version))
    .limit(1);
  return row[0] ?? { version: DEFAULT_VERSION, publishedAt: null, publishedBy: null };
}

/**
 * The published document with its version: one indexed read (the primary key's last row). For the
 * pages, e-mails and chat: the validated document, the defaults while nothing was published.
 */
export async function getPublished(db: Db): Promise<PublishedContent> {
  const row = await latestRow(db);
  if (!row) return { version: DEFAULT_VERSION, publishedAt: null, publishedBy: null, content: defaultContent };
  return { version: row.version, publishedAt: row.publishedAt, publishedBy: row.publishedBy, content: parseStored(row.content, row.version) ?? defaultContent };
}

/** Version `version`'s document through today's schema; the defaults when it has no row or no longer passes. */
export async function contentOfVersion(db: Db, version: number): Promise<SiteContent> {
  const [row] = await db.select({ content: contentVersions.content }).from(contentVersions).where(eq(contentVersions.version, version));
  return (row && parseStored(row.content, version)) ?? defaultContent;
}

/** The published content document alone (see getPublished). */
export async function getPublishedContent(db: Db): Promise<SiteContent> {
  return (await getPublished(db)).content;
}

/** The draft, or null when there is none (a publish consumes it). */
export async function getContentDraft(db: Db): Promise<ContentDraft | null> {
  return (await draftWithAuthors(db))?.draft ?? null;
}

async function draftWithAuthors(db: Db): Promise<{ draft: ContentDraft; authors: ChangeAuthors } | null> {
  const [row] = await db.select().from(contentDraft).where(eq(contentDraft.id, DRAFT_ID));
  if (!row) return null;
  // A draft is validated when saved; one that fails today's schema is still shown to be fixed, never lost.
  const draft = { basedOn: row.basedOn, revision: row.revision, updatedAt: row.updatedAt, updatedBy: row.updatedBy, content: JSON.parse(row.content) as SiteContent };
  return { draft, authors: JSON.parse(row.changeAuthors) as ChangeAuthors };
}

/** How often a save recomputes its authors when another save landed between its read and its write. */
const SAVE_ATTEMPTS = 3;

/**
 * Saves the draft (already validated by the route) made from version `basedOn`: one statement that
 * writes only while `basedOn` is the latest published version and, when the editor says which draft
 * it loaded (`draftUpdatedAt`: its updatedAt, or null for none), only while that is still the draft,
 * so a second tab's save is refused instead of overwritten.
 */
export async function saveDraft(
  db: Db,
  input: { basedOn: number; content: SiteContent; by: string; draftUpdatedAt?: Date | null },
): Promise<ContentWriteResult<ContentDraft>> {
  for (let attempt = 1; ; attempt++) {
    // Who saved each change (review.ts) is worked out from the draft as read here, so the write
    // holds only while that is still the draft (its revision); a save in between means a retry.
    const previous = await draftWithAuthors(db);
    const updatedAt = new Date();
    const base = await contentOfVersion(db, input.basedOn);
    const sameBase = previous !== null && previous.draft.basedOn === input.basedOn;
    const authors = authorsAfterSave({
      base,
      previous: sameBase ? previous.draft.content : base,
      previousAuthors: sameBase ? previous.authors : {},
      next: input.content,
      saved: { by: input.by, at: updatedAt.toISOString() },
    });
    const revision = (previous?.draft.revision ?? 0) + 1;
    const values = {
      id: DRAFT_ID,
      basedOn: input.basedOn,
      content: JSON.stringify(input.content),
      updatedAt,
      updatedBy: input.by,
      revision,
      changeAuthors: JSON.stringify(authors),
    };
    const draftRow = (column: typeof contentDraft.updatedAt | typeof contentDraft.revision) =>
      sql`(select ${column} from ${contentDraft} where ${contentDraft.id} = ${DRAFT_ID})`;
    const draftUnchanged = input.draftUpdatedAt === undefined ? sql`1` : sql`${draftRow(contentDraft.updatedAt)} is ${input.draftUpdatedAt?.getTime() ?? null}`;
    const sameRevision = sql`${draftRow(contentDraft.revision)} is ${previous?.draft.revision ?? null}`;
    const written = await insertWhen(db, contentDraft, values, sql`${latestVersionSql} = ${input.basedOn} and ${draftUnchanged} and ${sameRevision}`)
      .onConflictDoUpdate({
        target: contentDraft.id,
        set: {
          basedOn: sql`excluded.based_on`,
          content: sql`excluded.content`,
          updatedAt: sql`excluded.updated_at`,
          updatedBy: sql`excluded.updated_by`,
          revision: sql`excluded.revision`,
          changeAuthors: sql`excluded.change_authors`,
        },
      })
      .returning({ id: contentDraft.id });
    if (written.length > 0) return { ok: true, value: { basedOn: input.basedOn, revision, updatedAt, updatedBy: input.by, content: input.content } };
    const current = await currentVersion(db);
    if (current.version !== input.basedOn) return { ok: false, reason: 'stale', current };
    const draft = await getContentDraft(db);
    const loadedIsCurrent = input.draftUpdatedAt === undefined || (draft?.updatedAt.getTime() ?? null) === (input.draftUpdatedAt?.getTime() ?? null);
    if (!loadedIsCurrent || attempt >= SAVE_ATTEMPTS) {
      return { ok: false, reason: 'draft-changed', draft: draft && { updatedAt: draft.updatedAt, updatedBy: draft.updatedBy, revision: draft.revision } };
    }
  }
}

export interface DraftReview {
  /** The live version the draft would replace, and who published it. */
  live: CurrentVersion;
  /** The draft as reviewed: a publish names basedOn and revision (publishDraft). */
  basedOn: number;
  revision: number;
  updatedAt: Date;
  updatedBy: string;
  changes: ReviewChange[];
}

/** What publishing the draft now would change on the live site (review.ts), or null when there is no draft. */
export async function reviewDraft(db: Db): Promise<DraftReview | null> {
  const [found, live] = await Promise.all([draftWithAuthors(db), getPublished(db)]);
  if (!found) return null;
  const { draft, authors } = found;
  const { content: _live, ...liveVersion } = live;
  return {
    live: liveVersion,
    basedOn: draft.basedOn,
    revision: draft.revision,
    updatedAt: draft.updatedAt,
    updatedBy: draft.updatedBy,
    changes: reviewChanges(live.content, draft.content, authors),
  };
}

/**
 * Publishes the draft as version `basedOn + 1`, in one batch: the insert copies the draft only while
 * the draft was made from `basedOn`, `basedOn` is still the latest version and the draft is still
 * `revision`, the one the owner reviewed (and the primary key refuses a second version with the same
 * number), then the draft is deleted only if the insert happened. Of two concurrent publishes on one
 * version exactly one wins; the other gets 'stale'. A save since the review gets 'draft-changed'.
 */
export async function publishDraft(db: Db, input: { basedOn: number; revision: number; by: string }): Promise<ContentWriteResult<{ version: number }>> {
  const draft = await getContentDraft(db);
  if (!draft) return { ok: false, reason: 'no-draft' };
  if (draft.basedOn !== input.basedOn) return { ok: false, reason: 'stale', current: await currentVersion(db) };
  const changed = (now: ContentDraft | null): ContentWriteResult<never> => ({
    ok: false,
    reason: 'draft-changed',
    draft: now && { updatedAt: now.updatedAt, updatedBy: now.updatedBy, revision: now.revision },
  });
  if (draft.revision !== input.revision) return changed(draft);
  const checked = siteContentSchema.safeParse(draft.content);
  if (!checked.success) return { ok: false, reason: 'invalid', issues: checked.error.issues };

  const version = input.basedOn + 1;
  const [inserted] = await db.batch([
    db
      .insert(contentVersions)
      .select(
        sql`select ${version}, ${contentDraft.content}, ${Date.now()}, ${input.by}, null from ${contentDraft}
            where ${contentDraft.id} = ${DRAFT_ID} and ${contentDraft.basedOn} = ${input.basedOn} and ${contentDraft.revision} = ${input.revision}
              and ${latestVersionSql} = ${input.basedOn}`,
      )
      .onConflictDoNothing()
      .returning({ version: contentVersions.version }),
    db.delete(contentDraft).where(sql`${previousChanged} and ${contentDraft.id} = ${DRAFT_ID}`),
  ]);
  if (inserted.length === 0) {
    const current = await currentVersion(db);
    if (current.version !== input.basedOn) return { ok: false, reason: 'stale', current };
    return changed(await getContentDraft(db));
  }
  return { ok: true, value: { version } };
}

/**
 * Publishes a copy of an earlier version as a new version (the latest + 1), in one statement; the
 * draft is kept (it is now based on an older version, so saving it again asks for a fresh base).
 */
export async function restoreVersion(db: Db, input: { version: number; by: string }): Promise<ContentWriteResult<{ version: number }>> {
  let content = defaultContent;
  if (input.version !== DEFAULT_VERSION) {
    const [row] = await db.select({ content: contentVersions.content }).from(contentVersions).where(eq(contentVersions.version, input.version));
    if (!row) return { ok: false, reason: 'not-found' };
    // Through today's schema: an old version that no longer passes it is refused, never published.
    const checked = siteContentSchema.safeParse(JSON.parse(row.content));
    if (!checked.success) return { ok: false, reason: 'invalid', issues: checked.error.issues };
    content = checked.data;
  }
  const [row] = await db
    .insert(contentVersions)
    .select(sql`select ${latestVersionSql} + 1, ${JSON.stringify(content)}, ${Date.now()}, ${input.by}, ${input.version}`)
    .returning({ version: contentVersions.version });
  return { ok: true, value: { version: row.version } };
}

export interface ContentVersionSummary extends CurrentVersion {
  restoredFrom: number | null;
  /** What this version changed against the one before it (version 1 has none). */
  changes: ContentChange[];
  moreChanges: number;
}

/** Every published version, newest first, each with its diff against the previous one. Version 1 (the defaults) last. */
export async function listVersions(db: Db): Promise<ContentVersionSummary[]> {
  const rows = await db.select().from(contentVersions).orderBy(desc(contentVersions.version));
  const summaries: ContentVersionSummary[] = [];
  let newer: { row: (typeof rows)[number]; content: unknown } | null = null;
  const finish = (previousContent: unknown) => {
    if (!newer) return;
    const { row, content } = newer;
    summaries.push({ version: row.version, publishedAt: row.publishedAt, publishedBy: row.publishedBy, restoredFrom: row.restoredFrom, ...diffContent(previousContent, content) });
  };
  for (const row of rows) {
    const content: unknown = JSON.parse(row.content);
    finish(content);
    newer = { row, content };
  }
  finish(defaultContent);
  summaries.push({ version: DEFAULT_VERSION, publishedAt: null, publishedBy: null, restoredFrom: null, changes: [], moreChanges: 0 });
  return summaries;
}
