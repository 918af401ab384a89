CREATE TABLE `admin_invitations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`token_hash` text NOT NULL,
	`email` text NOT NULL,
	`name` text NOT NULL,
	`role` text NOT NULL,
	`can_send_newsletters` integer DEFAULT false NOT NULL,
	`invited_by` integer,
	`expires_at` integer NOT NULL,
	`accepted_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`invited_by`) REFERENCES `admin_users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `admin_invitations_token_hash_uq` ON `admin_invitations` (`token_hash`);--> statement-breakpoint
CREATE TABLE `admin_security_settings` (
	`id` integer PRIMARY KEY NOT NULL,
	`require_two_factor` integer DEFAULT false NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `admin_sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`admin_user_id` integer NOT NULL,
	`device` text NOT NULL,
	`country` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`admin_user_id`) REFERENCES `admin_users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `admin_sessions_user_idx` ON `admin_sessions` (`admin_user_id`);--> statement-breakpoint
CREATE INDEX `admin_sessions_expires_at_idx` ON `admin_sessions` (`expires_at`);--> statement-breakpoint
DROP TABLE `revoked_sessions`;--> statement-breakpoint
ALTER TABLE `admin_users` ADD `name` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `admin_users` ADD `email` text;--> statement-breakpoint
ALTER TABLE `admin_users` ADD `role` text DEFAULT 'staff' NOT NULL;--> statement-breakpoint
ALTER TABLE `admin_users` ADD `status` text DEFAULT 'active' NOT NULL;--> statement-breakpoint
ALTER TABLE `admin_users` ADD `can_send_newsletters` integer DEFAULT false NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `admin_users_email_uq` ON `admin_users` (`email`);--> statement-breakpoint
-- The accounts that existed before roles (the one administrator) become the first owners.
UPDATE `admin_users` SET `role` = 'owner', `name` = `username`;