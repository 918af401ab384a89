CREATE TABLE `appointment_reminders` (
	`appointment_id` integer NOT NULL,
	`date` text NOT NULL,
	`time_slot` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`appointment_id`, `date`, `time_slot`),
	FOREIGN KEY (`appointment_id`) REFERENCES `appointments`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `blocked_dates` (
	`date` text PRIMARY KEY NOT NULL,
	`reason` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `weekday_slots` (
	`weekday` integer NOT NULL,
	`time_slot` text NOT NULL,
	PRIMARY KEY(`weekday`, `time_slot`)
);
--> statement-breakpoint
ALTER TABLE `appointments` ADD `sequence` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `email_log` ADD `attachments` text;--> statement-breakpoint
-- Seed: every weekday offers the seven slots of web/content/booking.ts (bookingTimeSlots), as
-- before availability could be edited.
INSERT INTO `weekday_slots` (`weekday`, `time_slot`)
WITH d(weekday) AS (VALUES (1), (2), (3), (4), (5)),
     s(time_slot) AS (VALUES ('9:00 AM'), ('10:00 AM'), ('11:00 AM'), ('1:00 PM'), ('2:00 PM'), ('3:00 PM'), ('4:00 PM'))
SELECT weekday, time_slot FROM d CROSS JOIN s;
