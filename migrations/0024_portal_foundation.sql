CREATE TABLE `portal_clients` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`email` text NOT NULL,
	`phone` text,
	`created_by` integer NOT NULL,
	`status` text DEFAULT 'invited' NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `portal_clients_email_uq` ON `portal_clients` (`email`);--> statement-breakpoint
CREATE TABLE `portal_files` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`storage_key` text NOT NULL,
	`client_id` integer NOT NULL,
	`request_id` integer,
	`item_id` integer,
	`original_name` text NOT NULL,
	`detected_type` text NOT NULL,
	`size` integer NOT NULL,
	`key_id` text NOT NULL,
	`created_by_kind` text NOT NULL,
	`created_by_id` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`deleted_at` integer,
	FOREIGN KEY (`client_id`) REFERENCES `portal_clients`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`request_id`) REFERENCES `portal_requests`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`item_id`) REFERENCES `portal_request_items`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `portal_files_storage_key_uq` ON `portal_files` (`storage_key`);--> statement-breakpoint
CREATE INDEX `portal_files_client_idx` ON `portal_files` (`client_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `portal_files_request_idx` ON `portal_files` (`request_id`);--> statement-breakpoint
CREATE INDEX `portal_files_item_idx` ON `portal_files` (`item_id`);--> statement-breakpoint
CREATE TABLE `portal_request_items` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`request_id` integer NOT NULL,
	`label` text NOT NULL,
	`status` text DEFAULT 'missing' NOT NULL,
	`reason` text,
	`position` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`request_id`) REFERENCES `portal_requests`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `portal_request_items_request_idx` ON `portal_request_items` (`request_id`,`position`);--> statement-breakpoint
CREATE TABLE `portal_requests` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`client_id` integer NOT NULL,
	`title` text NOT NULL,
	`due_date` text,
	`note` text,
	`status` text DEFAULT 'open' NOT NULL,
	`closed_at` integer,
	`created_by` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`client_id`) REFERENCES `portal_clients`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `portal_requests_client_idx` ON `portal_requests` (`client_id`,`status`);--> statement-breakpoint
CREATE INDEX `portal_requests_closed_idx` ON `portal_requests` (`closed_at`) WHERE status = 'closed';--> statement-breakpoint
CREATE TABLE `portal_settings` (
	`id` integer PRIMARY KEY NOT NULL,
	`retention_years` integer DEFAULT 3 NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
