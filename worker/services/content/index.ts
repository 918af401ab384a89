// The content domain's door (docs/architecture.md, "Doors and the floor"): the firm's content as a
// versioned document (docs/decisions/0013-content-as-a-versioned-document.md). Everything outside
// worker/services/content/ imports it from here; content imports no other domain.

// What the worker says about the firm (e-mails, invites, the chat, the newsletter): the published document.
export { publishedContent } from './published';
// The public pages and the client-only shell with the published content (docs/decisions/0016-published-content-serving.md).
export { pageHeaders, publishedPage, staticFileWithContent } from './published-pages';
// The editor's use cases (worker/routes/admin/content.ts).
export { contentForEditor, publishContent, restoreContent, saveContentDraft, type DraftTooLarge } from './publishing';
export { previewPage, type PreviewResult } from './preview';
export { listVersions, reviewDraft, type ContentWriteResult, type CurrentVersion } from './store';
