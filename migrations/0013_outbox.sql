ALTER TABLE `email_log` ADD `to_name` text;--> statement-breakpoint
ALTER TABLE `email_log` ADD `reply_to` text;--> statement-breakpoint
CREATE INDEX `email_log_queued_idx` ON `email_log` (`updated_at`) WHERE status = 'queued';