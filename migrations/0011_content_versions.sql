-- The firm's content as one versioned document (docs/decisions/0013-content-as-a-versioned-document.md):
-- published versions and the one draft. Nothing is seeded: version 1 is the repository's default
-- content (core/content/default-content.ts), implicit until the first publish writes version 2.
CREATE TABLE `content_draft` (
	`id` integer PRIMARY KEY NOT NULL,
	`based_on` integer NOT NULL,
	`content` text NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_by` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `content_versions` (
	`version` integer PRIMARY KEY NOT NULL,
	`content` text NOT NULL,
	`published_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`published_by` text NOT NULL,
	`restored_from` integer
);
