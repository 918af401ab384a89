ALTER TABLE `appointments` ADD `public_id` text;--> statement-breakpoint
CREATE UNIQUE INDEX `appointments_public_id_uq` ON `appointments` (`public_id`);