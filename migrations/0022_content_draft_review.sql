ALTER TABLE `content_draft` ADD `revision` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `content_draft` ADD `change_authors` text DEFAULT '{}' NOT NULL;