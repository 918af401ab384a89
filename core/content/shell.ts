/**
 * The id of the element in which the worker hands the client-only screens (the admin, the e-mail
 * link pages) the published content as JSON (worker/services/content/published-pages.ts), read by
 * web/main.tsx before its first render.
 */
export const SHELL_CONTENT_ID = 'published-content';
