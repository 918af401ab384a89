CREATE TABLE `chat_sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`started_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`last_activity_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`message_count` integer DEFAULT 0 NOT NULL,
	`first_question` text NOT NULL,
	`handed_off_at` integer,
	`contact_message_id` integer
);
--> statement-breakpoint
CREATE INDEX `chat_sessions_last_activity_idx` ON `chat_sessions` (`last_activity_at`);--> statement-breakpoint
ALTER TABLE `chat_messages` ADD `refused` integer DEFAULT false NOT NULL;--> statement-breakpoint
-- Conversations stored before sessions existed get their session row, so the retention purge and
-- the admin's transcripts cover them too.
INSERT INTO `chat_sessions` (`id`, `started_at`, `last_activity_at`, `message_count`, `first_question`)
SELECT `session_id`, min(`created_at`), max(`created_at`), count(*),
       coalesce((SELECT f.`content` FROM `chat_messages` f WHERE f.`session_id` = m.`session_id` AND f.`role` = 'user' ORDER BY f.`id` LIMIT 1), '')
FROM `chat_messages` m GROUP BY `session_id`;
