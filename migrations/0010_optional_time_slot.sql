-- Preferred Time is optional (docs/product.md §3): appointments.time_slot becomes nullable. SQLite
-- cannot drop a NOT NULL in place, so the table is rebuilt with every row copied. D1 keeps foreign
-- keys on inside a migration (PRAGMA foreign_keys=OFF does nothing there), so DROP TABLE would
-- cascade into appointment_reminders (ON DELETE CASCADE) and forget which reminders went out: those
-- rows are kept aside and put back after the rename. Deferred checks let the rebuild run in one go.
PRAGMA defer_foreign_keys = on;--> statement-breakpoint
CREATE TABLE `__kept_appointment_reminders` AS SELECT `appointment_id`, `date`, `time_slot`, `created_at` FROM `appointment_reminders`;--> statement-breakpoint
CREATE TABLE `__new_appointments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`email` text NOT NULL,
	`phone` text,
	`service_type` text NOT NULL,
	`date` text NOT NULL,
	`time_slot` text,
	`notes` text,
	`status` text DEFAULT 'requested' NOT NULL,
	`sequence` integer DEFAULT 0 NOT NULL,
	`network_hash` text,
	`public_id` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
INSERT INTO `__new_appointments`("id", "name", "email", "phone", "service_type", "date", "time_slot", "notes", "status", "sequence", "network_hash", "public_id", "created_at", "updated_at") SELECT "id", "name", "email", "phone", "service_type", "date", "time_slot", "notes", "status", "sequence", "network_hash", "public_id", "created_at", "updated_at" FROM `appointments`;--> statement-breakpoint
DROP TABLE `appointments`;--> statement-breakpoint
ALTER TABLE `__new_appointments` RENAME TO `appointments`;--> statement-breakpoint
INSERT OR IGNORE INTO `appointment_reminders` (`appointment_id`, `date`, `time_slot`, `created_at`) SELECT `appointment_id`, `date`, `time_slot`, `created_at` FROM `__kept_appointment_reminders`;--> statement-breakpoint
DROP TABLE `__kept_appointment_reminders`;--> statement-breakpoint
PRAGMA defer_foreign_keys = off;--> statement-breakpoint
CREATE UNIQUE INDEX `appointments_active_slot_uq` ON `appointments` (`date`,`time_slot`) WHERE status <> 'cancelled';--> statement-breakpoint
CREATE UNIQUE INDEX `appointments_public_id_uq` ON `appointments` (`public_id`);--> statement-breakpoint
CREATE INDEX `appointments_date_idx` ON `appointments` (`date`);--> statement-breakpoint
CREATE INDEX `appointments_created_at_idx` ON `appointments` (`created_at`);--> statement-breakpoint
CREATE INDEX `appointments_network_hash_idx` ON `appointments` (`network_hash`);--> statement-breakpoint
CREATE INDEX `appointments_open_email_idx` ON `appointments` (lower("email"),`date`) WHERE status = 'requested';--> statement-breakpoint
CREATE INDEX `appointments_open_network_idx` ON `appointments` (`network_hash`,`date`) WHERE status = 'requested';