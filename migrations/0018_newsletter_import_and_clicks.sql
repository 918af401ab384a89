CREATE TABLE `newsletter_clicks` (
	`delivery_id` integer NOT NULL,
	`link_index` integer NOT NULL,
	`newsletter_id` integer NOT NULL,
	`clicked_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`delivery_id`, `link_index`)
);
--> statement-breakpoint
CREATE INDEX `newsletter_clicks_newsletter_idx` ON `newsletter_clicks` (`newsletter_id`,`link_index`);--> statement-breakpoint
CREATE TABLE `newsletter_settings` (
	`id` integer PRIMARY KEY NOT NULL,
	`click_tracking` integer DEFAULT true NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `subscriber_import_rows` (
	`import_id` integer NOT NULL,
	`line` integer NOT NULL,
	`email` text NOT NULL,
	`name` text,
	`consent_at` integer,
	`source` text,
	`problem` text,
	PRIMARY KEY(`import_id`, `line`),
	FOREIGN KEY (`import_id`) REFERENCES `subscriber_imports`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `subscriber_import_rows_email_idx` ON `subscriber_import_rows` (`import_id`,`email`,`line`);--> statement-breakpoint
CREATE TABLE `subscriber_imports` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`file_name` text NOT NULL,
	`created_by` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`status` text DEFAULT 'staged' NOT NULL,
	`consent` text,
	`confirmed_by` text,
	`confirmed_at` integer,
	`next_line` integer DEFAULT 0 NOT NULL,
	`imported_count` integer DEFAULT 0 NOT NULL,
	`finished_at` integer
);
--> statement-breakpoint
ALTER TABLE `newsletter_deliveries` ADD `email_log_id` integer;--> statement-breakpoint
ALTER TABLE `newsletter_deliveries` ADD `unsubscribed_at` integer;--> statement-breakpoint
ALTER TABLE `newsletter_subscriptions` ADD `import_id` integer;--> statement-breakpoint
ALTER TABLE `newsletter_subscriptions` ADD `consent_source` text;--> statement-breakpoint
ALTER TABLE `newsletter_subscriptions` ADD `consent_at` integer;