CREATE TABLE `newsletter_drafts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`subject` text NOT NULL,
	`content` text DEFAULT '' NOT NULL,
	`status` text DEFAULT 'draft' NOT NULL,
	`scheduled_at` integer,
	`claimed_at` integer,
	`newsletter_id` integer,
	`error` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `newsletter_drafts_due_idx` ON `newsletter_drafts` (`status`,`scheduled_at`);--> statement-breakpoint
ALTER TABLE `sent_newsletters` ADD `draft_id` integer;--> statement-breakpoint
CREATE UNIQUE INDEX `sent_newsletters_draft_uq` ON `sent_newsletters` (`draft_id`);