CREATE TABLE `admin_recovery_codes` (
	`code_hash` text PRIMARY KEY NOT NULL,
	`admin_user_id` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`admin_user_id`) REFERENCES `admin_users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `admin_recovery_codes_admin_user_idx` ON `admin_recovery_codes` (`admin_user_id`);--> statement-breakpoint
ALTER TABLE `admin_users` ADD `totp_secret` text;--> statement-breakpoint
ALTER TABLE `admin_users` ADD `totp_pending_secret` text;--> statement-breakpoint
ALTER TABLE `admin_users` ADD `totp_last_step` integer;