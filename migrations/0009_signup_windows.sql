CREATE TABLE `signup_windows` (
	`ip_hash` text NOT NULL,
	`window_start` integer NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`ip_hash`, `window_start`)
);
