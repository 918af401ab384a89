ALTER TABLE `audit_log` ADD `count` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `audit_log` ADD `bucket` text;--> statement-breakpoint
CREATE UNIQUE INDEX `audit_log_bucket_uq` ON `audit_log` (`bucket`);--> statement-breakpoint
ALTER TABLE `subscriber_imports` ADD `staged_rows` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `subscriber_imports` ADD `dry_run` text;