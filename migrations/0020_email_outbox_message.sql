ALTER TABLE `email_log` ADD `outbox_message` text;--> statement-breakpoint
-- No bearer secret in the e-mail log (docs/decisions/0020-no-bearer-secret-in-the-e-mail-log.md).
-- A message still waiting for its transport moves, whole, into outbox_message, where the sweep
-- finds it; its body columns are blanked like those of every earlier message whose links carried a
-- secret (a token= parameter, a /r/ click link): SQL cannot cut the secret out of the text, and a
-- pending invitation must not stay readable in the log. Who was mailed what subject when stays.
UPDATE `email_log` SET `outbox_message` = json_object('to', "to", 'toName', `to_name`, 'fromName', `from_name`, 'replyTo', `reply_to`, 'subject', `subject`, 'kind', `kind`, 'text', `text_body`, 'html', `html_body`, 'headers', json(`headers`), 'attachments', json(`attachments`)), `text_body` = '', `html_body` = NULL, `headers` = NULL WHERE `status` = 'queued';--> statement-breakpoint
UPDATE `email_log` SET `text_body` = '', `html_body` = NULL, `headers` = NULL WHERE `status` <> 'queued' AND (`text_body` LIKE '%token=%' OR `text_body` LIKE '%/r/%' OR `html_body` LIKE '%token=%' OR `html_body` LIKE '%/r/%' OR `headers` LIKE '%token=%');
