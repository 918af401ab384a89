-- E-mail as an outbox (docs/architecture.md, Writes): a 'queued' row holds the whole message, Reply-To
-- and the recipient's name included, so the cron can send one its request never delivered; the
-- partial index keeps the cron's look for such rows to the rows still queued.
ALTER TABLE `email_log` ADD `to_name` text;--> statement-breakpoint
ALTER TABLE `email_log` ADD `reply_to` text;--> statement-breakpoint
CREATE INDEX `email_log_queued_idx` ON `email_log` (`updated_at`) WHERE status = 'queued';