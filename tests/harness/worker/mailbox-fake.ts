import { vi } from 'vitest';

/**
 * The worker tests' mailbox: the e-mail log keeps no link's token (worker/mail-redaction.ts), so a
 * test that follows a link from an e-mail reads it where a developer does, from the local mailbox
 * (worker/services/email/local-mailbox.ts). Requests made with MAILBOX_ENV hand their e-mails to
 * LOCAL_MAILBOX_URL; its sink (scripts/lib/local-mailbox.ts, a Node server) cannot run inside
 * workerd, so here the worker's outbound fetch to that address lands in this recorder instead,
 * the message exactly as the sink would receive it.
 */
export const MAILBOX_URL = 'http://127.0.0.1:9/mailbox';

/** The bindings that route a request's e-mails to this mailbox: client({ env: MAILBOX_ENV }). */
export const MAILBOX_ENV = { LOCAL_MAILBOX_URL: MAILBOX_URL };

export interface DeliveredMail {
  kind: string;
  to: string[];
  subject: string;
  text: string;
  html: string | undefined;
  headers: Record<string, string>;
  attachments: { type: string; filename: string; content: string }[];
}

interface Payload {
  personalizations: { to: { email: string }[] }[];
  subject: string;
  content: { type: string; value: string }[];
  headers?: Record<string, string>;
  attachments?: { type: string; filename: string; content: string }[];
}

const delivered: DeliveredMail[] = [];
let realFetch: typeof fetch | undefined;

async function recordingFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const request = new Request(input, init);
  if (!request.url.startsWith(`${MAILBOX_URL}/`)) return (realFetch ?? fetch)(input, init);
  const payload = (await request.json()) as Payload;
  delivered.push({
    kind: new URL(request.url).searchParams.get('kind') ?? '',
    to: payload.personalizations.flatMap((p) => p.to.map((t) => t.email)),
    subject: payload.subject,
    text: payload.content.find((c) => c.type === 'text/plain')?.value ?? '',
    html: payload.content.find((c) => c.type === 'text/html')?.value,
    headers: payload.headers ?? {},
    attachments: payload.attachments ?? [],
  });
  return Response.json({ request_id: `mailbox-${delivered.length}` }, { status: 202 });
}

/** Every e-mail the mailbox has received in this runtime, oldest first. */
export const deliveredMail = (): readonly DeliveredMail[] => delivered;

/**
 * Installs the recorder (once; again after vi.unstubAllGlobals) and returns a view of what it
 * receives from now on (earlier tests' mail is not seen).
 */
export function fakeMailbox() {
  if (globalThis.fetch !== recordingFetch) {
    realFetch = globalThis.fetch;
    vi.stubGlobal('fetch', recordingFetch);
  }
  const since = delivered.length;
  return {
    /** Every e-mail delivered to the mailbox since this view was made, oldest first. */
    all: (): readonly DeliveredMail[] => delivered.slice(since),
    /** The e-mails of `kind` to `to`, oldest first. */
    to: (to: string, kind: string) => delivered.slice(since).filter((m) => m.kind === kind && m.to.includes(to)),
    /** The newest e-mail of `kind` to `to`; throws when there is none. */
    latest(to: string, kind: string): DeliveredMail {
      const mail = this.to(to, kind).at(-1);
      if (!mail) throw new Error(`no ${kind} e-mail to ${to} in the mailbox`);
      return mail;
    },
  };
}
