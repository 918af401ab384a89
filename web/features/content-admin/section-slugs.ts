// The content screens' addresses (/admin/content/<slug>), one per section of the content document
// (web/features/content-admin/sections.ts). Kept apart so the route table (web/routes.tsx) lists
// them without loading the screens' code.
export const CONTENT_SECTION_SLUGS = ['firm', 'services', 'about', 'testimonials', 'faq', 'resources', 'privacy', 'booking', 'chat'] as const;
export type ContentSectionSlug = (typeof CONTENT_SECTION_SLUGS)[number];

/** The way back from a section or the history to the content overview (its sub-pages' back link). */
export const CONTENT_OVERVIEW_LINK = { to: '/admin/content', label: 'Site content' };
