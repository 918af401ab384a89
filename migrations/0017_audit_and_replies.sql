CREATE TABLE `audit_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`actor_id` integer,
	`actor` text NOT NULL,
	`action` text NOT NULL,
	`record` text,
	`outcome` text DEFAULT 'success' NOT NULL,
	`network` text
);
--> statement-breakpoint
CREATE INDEX `audit_log_at_idx` ON `audit_log` (`at`);--> statement-breakpoint
CREATE INDEX `audit_log_actor_idx` ON `audit_log` (`actor`,`at`);--> statement-breakpoint
CREATE INDEX `audit_log_action_idx` ON `audit_log` (`action`,`at`);--> statement-breakpoint
CREATE TABLE `contact_replies` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`contact_message_id` integer NOT NULL,
	`admin_user_id` integer NOT NULL,
	`author_name` text NOT NULL,
	`body` text NOT NULL,
	`message_id` text NOT NULL,
	`email_log_id` integer,
	`day` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`contact_message_id`) REFERENCES `contact_messages`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `contact_replies_message_idx` ON `contact_replies` (`contact_message_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `contact_replies_cap_idx` ON `contact_replies` (`admin_user_id`,`day`);--> statement-breakpoint
ALTER TABLE `contact_messages` ADD `message_id` text;--> statement-breakpoint
ALTER TABLE `email_log` ADD `from_name` text;