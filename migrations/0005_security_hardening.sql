CREATE TABLE `chat_windows` (
	`ip_hash` text NOT NULL,
	`window_start` integer NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`ip_hash`, `window_start`)
);
--> statement-breakpoint
CREATE TABLE `daily_counters` (
	`day` text NOT NULL,
	`counter` text NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`day`, `counter`)
);
--> statement-breakpoint
CREATE TABLE `login_attempts` (
	`key` text PRIMARY KEY NOT NULL,
	`window_start` integer NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	`blocked_until` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `revoked_sessions` (
	`jti` text PRIMARY KEY NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `revoked_sessions_expires_at_idx` ON `revoked_sessions` (`expires_at`);--> statement-breakpoint
-- The shared daily count of contact + booking submissions becomes one counter per form
-- (daily_counters 'contact' and 'booking'); the day of the deploy starts both from zero.
-- Sign-in failures become counted attempts (login_attempts): open windows restart too.
DROP TABLE `daily_submissions`;--> statement-breakpoint
DROP TABLE `login_failures`;--> statement-breakpoint
ALTER TABLE `appointments` ADD `network_hash` text;--> statement-breakpoint
CREATE INDEX `appointments_network_hash_idx` ON `appointments` (`network_hash`);--> statement-breakpoint
CREATE INDEX `email_log_body_kept_idx` ON `email_log` (`created_at`) WHERE text_body <> '';