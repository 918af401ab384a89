CREATE TABLE `delivery_events` (
	`event_key` text PRIMARY KEY NOT NULL,
	`event` text NOT NULL,
	`recipient` text,
	`request_id` text,
	`occurred_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `delivery_events_received_idx` ON `delivery_events` (`created_at`);--> statement-breakpoint
ALTER TABLE `email_log` ADD `delivery_status` text;--> statement-breakpoint
ALTER TABLE `email_log` ADD `delivery_detail` text;--> statement-breakpoint
ALTER TABLE `email_log` ADD `delivery_updated_at` integer;--> statement-breakpoint
CREATE INDEX `email_log_provider_id_idx` ON `email_log` (`provider_id`);--> statement-breakpoint
ALTER TABLE `newsletter_subscriptions` ADD `suppressed_at` integer;--> statement-breakpoint
ALTER TABLE `newsletter_subscriptions` ADD `suppression_reason` text;--> statement-breakpoint
ALTER TABLE `newsletter_subscriptions` ADD `suppression_detail` text;--> statement-breakpoint
ALTER TABLE `newsletter_subscriptions` ADD `soft_bounces` integer DEFAULT 0 NOT NULL;