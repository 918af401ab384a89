import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

/**
 * The local "mailbox": with no MailChannels key the server keeps every e-mail in its D1 e-mail log
 * (the outbox transport). This reads the text of the newest e-mail of `kind` to `to` from a local
 * run's SQLite files under `persistTo` (wrangler's --persist-to); undefined when there is none yet,
 * or no database yet.
 */
export function latestLoggedEmail(persistTo: string, to: string, kind: string): string | undefined {
  const dir = join(persistTo, 'v3', 'd1', 'miniflare-D1DatabaseObject');
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.sqlite'));
  } catch {
    return undefined;
  }
  for (const file of files) {
    const db = new DatabaseSync(join(dir, file), { readOnly: true });
    try {
      if (!db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'email_log'").get()) continue;
      const row = db.prepare('SELECT text_body AS body FROM email_log WHERE "to" = ? AND kind = ? ORDER BY id DESC LIMIT 1').get(to, kind) as
        | { body: string }
        | undefined;
      if (row) return row.body;
    } finally {
      db.close();
    }
  }
  return undefined;
}
