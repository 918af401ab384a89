CREATE TABLE `booking_rules` (
	`id` integer PRIMARY KEY NOT NULL,
	`minimum_notice_hours` integer NOT NULL,
	`horizon_days` integer NOT NULL,
	`close_federal_holidays` integer NOT NULL,
	`reopened_holidays` text DEFAULT '[]' NOT NULL,
	`updated_at` integer NOT NULL
);
