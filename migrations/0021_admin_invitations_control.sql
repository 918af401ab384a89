CREATE TABLE `admin_password_resets` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`token_hash` text NOT NULL,
	`admin_user_id` integer NOT NULL,
	`requested_by` integer,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`admin_user_id`) REFERENCES `admin_users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`requested_by`) REFERENCES `admin_users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `admin_password_resets_token_hash_uq` ON `admin_password_resets` (`token_hash`);--> statement-breakpoint
CREATE INDEX `admin_password_resets_user_idx` ON `admin_password_resets` (`admin_user_id`);--> statement-breakpoint
ALTER TABLE `admin_invitations` ADD `revoked_at` integer;--> statement-breakpoint
ALTER TABLE `admin_invitations` ADD `totp_pending_secret` text;--> statement-breakpoint
CREATE INDEX `admin_invitations_invited_by_idx` ON `admin_invitations` (`invited_by`);--> statement-breakpoint
-- Usernames become unique whatever their case (docs/product.md §6.8). Accounts whose name differs
-- from an older account's only by case keep their sign-in but not the name: each is renamed to
-- <name>-<id> (the oldest keeps the name), recorded in the audit trail as the system's change, so
-- no row is lost and the index below can be built.
INSERT INTO `audit_log` (`actor`, `action`, `record`)
  SELECT 'system', 'user.update', 'admin-user:' || `id` FROM `admin_users` AS later
  WHERE EXISTS (SELECT 1 FROM `admin_users` AS older WHERE lower(older.`username`) = lower(later.`username`) AND older.`id` < later.`id`);--> statement-breakpoint
UPDATE `admin_users` SET `username` = `username` || '-' || `id`
  WHERE EXISTS (SELECT 1 FROM `admin_users` AS older WHERE lower(older.`username`) = lower(`admin_users`.`username`) AND older.`id` < `admin_users`.`id`);--> statement-breakpoint
-- An invitation still pending from an account that is no longer an active owner is withdrawn, as
-- deactivating or demoting it now does (worker/services/admin-auth/accounts.ts).
UPDATE `admin_invitations` SET `revoked_at` = cast(unixepoch('subsec') * 1000 as integer)
  WHERE `accepted_at` IS NULL AND NOT EXISTS (SELECT 1 FROM `admin_users` WHERE `admin_users`.`id` = `admin_invitations`.`invited_by` AND `role` = 'owner' AND `status` = 'active');--> statement-breakpoint
CREATE UNIQUE INDEX `admin_users_username_lower_uq` ON `admin_users` (lower("username"));