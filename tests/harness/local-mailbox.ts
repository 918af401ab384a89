import { readMailbox, type MailboxMessage } from '../../scripts/lib/local-mailbox';

/**
 * The local mailbox: with no MailChannels key a local stack writes every e-mail as an .eml file into
 * its mail/ folder (scripts/lib/local-mailbox.ts). The newest message of `kind` to `to` there,
 * whole (links with their tokens, which the e-mail log no longer keeps); undefined when there is
 * none yet.
 */
export function latestMail(mailDir: string, to: string, kind: string): MailboxMessage | undefined {
  return readMailbox(mailDir)
    .filter((m) => m.kind === kind && m.to.includes(to))
    .at(-1);
}

/** The text part of latestMail. */
export function latestMailText(mailDir: string, to: string, kind: string): string | undefined {
  return latestMail(mailDir, to, kind)?.text;
}
