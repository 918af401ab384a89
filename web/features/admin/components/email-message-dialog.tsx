import { Paperclip } from 'lucide-react';
import type { ReactNode } from 'react';
import { Badge } from '../../../components/ui/badge';
import { Dialog, DialogActions, DialogLoadState } from '../../../components/ui/dialog';
import { useEmailMessage, type EmailMessage } from '../api/admin-api';
import { formatDateTime } from '../lib/format';
import { BreakableAddress } from './breakable-address';
import { emailStatusVariant } from './email-status';

/** What stands in the kept copy where a link's secret was (worker/mail-redaction.ts REDACTED_SECRET). */
const NOT_KEPT = '(link sent, not kept)';

/**
 * The policy the message's HTML is shown under, on top of the sandbox (no scripts, no forms, an
 * opaque origin) and of the admin page's own policy, which the frame inherits: nothing is fetched
 * but this site's own images, so opening a message never tells a third party (a tracking pixel, a
 * remote font) that it was read.
 */
function framePolicy(): string {
  return `default-src 'none'; img-src data: ${window.location.origin}; style-src 'unsafe-inline'; font-src data:`;
}

/**
 * The logged HTML with the policy first: a doctype and the meta before anything the message holds,
 * so no element of the message is parsed before the policy applies (the message's own doctype and
 * <head> after it are ignored by the parser, its content kept).
 */
export function framedHtml(html: string): string {
  return `<!DOCTYPE html><meta http-equiv="Content-Security-Policy" content="${framePolicy()}"><meta charset="utf-8">${inertMessageHtml(html)}`;
}

/** What Tab stops at inside a message: links, form controls, anything with a tabindex. */
const FOCUSABLE = 'a[href], area[href], button, input, select, textarea, summary, iframe, object, embed, [tabindex], [contenteditable]';
/** Attributes through which an element fetches something when shown. */
const FETCHING = ['src', 'srcset', 'poster', 'background', 'data'] as const;

/**
 * The message's HTML made a picture of itself, parsed (DOMParser runs no script and loads nothing)
 * and never run:
 * - nothing Tab can stop at: focus that entered the sandboxed frame (another origin) would take the
 *   keyboard away from the dialog, whose Escape then no longer reaches it; the links are the
 *   recipient's, and the text above says where they went;
 * - nothing fetched from another site: the frame's policy (framePolicy) forbids it, but the
 *   browser's preload scanner can start an image's request before the policy's meta is applied (a
 *   tracking pixel would learn the message was read); so a remote source is taken out here, kept
 *   in a data-blocked-* attribute, and remote stylesheets and <base> are dropped.
 */
function inertMessageHtml(html: string): string {
  if (typeof DOMParser === 'undefined') return html;
  const doc = new DOMParser().parseFromString(html, 'text/html');
  for (const element of doc.querySelectorAll(FOCUSABLE)) element.setAttribute('tabindex', '-1');
  // Another site's: any scheme (or a scheme-relative //host) but data:, and not this site's origin.
  const isRemote = (value: string) => {
    const url = value.trim();
    return /^([a-z][a-z0-9+.-]*:|\/\/)/i.test(url) && !/^data:/i.test(url) && !url.startsWith(`${window.location.origin}/`);
  };
  for (const element of doc.querySelectorAll('[src], [srcset], [poster], [background], object[data]')) {
    for (const name of FETCHING) {
      const value = element.getAttribute(name);
      if (value !== null && (name === 'srcset' ? value.split(',').some((part) => isRemote(part.trim().split(/\s+/)[0] ?? '')) : isRemote(value))) {
        element.setAttribute(`data-blocked-${name}`, value);
        element.removeAttribute(name);
      }
    }
  }
  for (const element of doc.querySelectorAll('link[href], base')) element.remove();
  return doc.documentElement.outerHTML;
}

/** Size of base64 content once decoded, for the label. */
export function decodedSize(base64: string): string {
  const bytes = Math.floor((base64.replace(/=+$/, '').length * 3) / 4);
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`;
}

/** The bare media type of a Content-Type (parameters such as charset or method would need escaping in a data: URL). */
export function mediaTypeOf(contentType: string): string {
  return /^[\w.+-]+\/[\w.+-]+/.exec(contentType)?.[0] ?? 'application/octet-stream';
}

/**
 * One message of the e-mail log opened as it was sent (docs/product.md §7 "The e-mail log"): its
 * headers, its text, its HTML in a sandboxed frame, its files to download, and what became of it.
 * The log keeps no link's secret (docs/decisions/0020-no-bearer-secret-in-the-e-mail-log.md): where
 * one was, the dialog says so.
 */
export function EmailMessageDialog({ id, onClose }: { id: number | null; onClose: () => void }) {
  const message = useEmailMessage(id);
  const m = message.data;
  return (
    <Dialog
      open={id !== null}
      onOpenChange={(next) => !next && onClose()}
      title={m ? `E-mail: ${m.subject}` : 'E-mail'}
      description={m ? `${m.status === 'queued' ? 'Queued' : 'Written'} ${formatDateTime(m.createdAt)}` : undefined}
      className="sm:max-w-3xl"
    >
      <DialogLoadState query={message} loading="Loading the e-mail..." failure="The e-mail could not be loaded." />
      {m && <MessageBody m={m} />}
      <DialogActions cancel="Done" onCancel={onClose} />
    </Dialog>
  );
}

function MessageBody({ m }: { m: EmailMessage }) {
  // The headers every message has are shown above; the rest (List-Unsubscribe, Auto-Submitted...) after them.
  const otherHeaders = Object.entries(m.headers ?? {});
  const purged = m.textBody === '' && !m.htmlBody;
  return (
    // The message scrolls in its own region, a focus stop of its own (so the keyboard can scroll it):
    // the title above and Done below stay in view, and the focus the dialog gives on open is never
    // pushed out of sight by the message loading above it.
    <div
      className="-mx-1 min-h-0 flex-1 space-y-5 overflow-y-auto px-1 text-sm"
      data-testid="email-message"
      role="region"
      aria-label="The e-mail as sent"
      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrolling region must be reachable by keyboard (axe scrollable-region-focusable)
      tabIndex={0}
    >
      <dl className="grid grid-cols-1 gap-x-4 gap-y-1 sm:grid-cols-[8rem_1fr]" aria-label="Headers">
        <Field label="From">{m.from}</Field>
        <Field label="To">
          {m.toName ? `${m.toName} <` : ''}
          <BreakableAddress address={m.to} />
          {m.toName ? '>' : ''}
        </Field>
        {m.replyTo && (
          <Field label="Reply-To">
            <BreakableAddress address={m.replyTo} />
          </Field>
        )}
        <Field label="Subject">{m.subject}</Field>
        <Field label="Date">{formatDateTime(m.createdAt)}</Field>
        {otherHeaders.map(([name, value]) => (
          <Field key={name} label={name}>
            <span className="break-words">{value}</span>
          </Field>
        ))}
      </dl>

      <section aria-labelledby="email-delivery-heading" className="space-y-1 rounded-md border border-slate-200 p-3">
        <h3 id="email-delivery-heading" className="font-semibold text-slate-900">
          Delivery
        </h3>
        <p className="flex flex-wrap items-center gap-2">
          <Badge variant={emailStatusVariant[m.status]}>{m.status}</Badge>
          <span className="text-slate-700">
            {transportWords(m.transport)} · {m.kind}
            {m.providerId ? ` · provider id ${m.providerId}` : ''}
          </span>
        </p>
        {m.error && <p className="text-red-700">{m.error}</p>}
        {m.deliveryStatus && (
          <p className="text-slate-700" data-testid="email-message-delivery">
            Reported by MailChannels: {m.deliveryStatus}
            {m.deliveryUpdatedAt ? ` ${formatDateTime(m.deliveryUpdatedAt)}` : ''}
            {m.deliveryDetail ? `: ${m.deliveryDetail}` : ''}
          </p>
        )}
      </section>

      {m.linksNotKept && (
        <p role="note" data-testid="links-not-kept" className="rounded-md border border-amber-200 bg-amber-50 p-3 text-amber-900">
          Where this copy says <strong>{NOT_KEPT}</strong>, the e-mail carried a link that acts for the recipient (to confirm
          or end a subscription, cancel or move an appointment, accept an invitation, reset a password). The link went out
          whole; the log keeps it without its secret, so nobody reading the log can act in the recipient&apos;s name.
          {m.transport === 'mailbox' &&
            ' On this development machine the whole message, its links working, is also in the local mailbox (.wrangler/mail/).'}
        </p>
      )}

      {purged ? (
        <p className="text-slate-600">The text of this e-mail is no longer kept: the log keeps bodies and files for 90 days.</p>
      ) : (
        <>
          <section aria-labelledby="email-text-heading" className="space-y-1">
            <h3 id="email-text-heading" className="font-semibold text-slate-900">
              Text
            </h3>
            <pre data-testid="email-text" className="whitespace-pre-wrap break-words rounded-md bg-slate-50 p-3 font-sans text-slate-800">
              <Marked text={m.textBody} />
            </pre>
          </section>
          {m.htmlBody && (
            <section aria-labelledby="email-html-heading" className="space-y-1">
              <h3 id="email-html-heading" className="font-semibold text-slate-900">
                As it looks (HTML)
              </h3>
              <p className="text-xs text-slate-600">Shown without scripts; images from other sites are not loaded.</p>
              {/* sandbox="": no scripts, forms or navigation, an opaque origin; the logged HTML can never act on the admin's session. */}
              <iframe
                sandbox=""
                srcDoc={framedHtml(m.htmlBody)}
                title={`HTML of the e-mail: ${m.subject}`}
                data-testid="email-html"
                className="h-96 w-full rounded-md border border-slate-200 bg-white"
              />
            </section>
          )}
        </>
      )}

      {m.attachments.length > 0 && (
        <section aria-labelledby="email-files-heading" className="space-y-1">
          <h3 id="email-files-heading" className="font-semibold text-slate-900">
            Attachments
          </h3>
          <ul className="space-y-1">
            {m.attachments.map((a, i) => (
              <li key={i} data-testid="email-message-attachment">
                <a
                  href={`data:${mediaTypeOf(a.contentType)};base64,${a.content}`}
                  download={a.filename}
                  className="inline-flex items-center gap-1 py-1 text-brand-700 underline hover:text-brand-800"
                >
                  <Paperclip className="h-3 w-3 shrink-0" aria-hidden="true" />
                  <span className="break-words">{a.filename}</span>
                </a>{' '}
                <span className="text-slate-600">
                  {mediaTypeOf(a.contentType)}, {decodedSize(a.content)}
                </span>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="font-medium text-slate-600">{label}</dt>
      <dd className="mb-1 text-slate-900 sm:mb-0">{children}</dd>
    </>
  );
}

/** The transport in words: where the message went. */
function transportWords(transport: string): string {
  if (transport === 'mailchannels') return 'Sent through MailChannels';
  if (transport === 'mailbox') return 'Written to the local mailbox (development)';
  if (transport === 'outbox') return 'Kept in the outbox (no MailChannels key configured)';
  return transport;
}

/** The text with each "(link sent, not kept)" marked, so the eye finds where a link's secret was. */
function Marked({ text }: { text: string }) {
  const parts = text.split(NOT_KEPT);
  return (
    <>
      {parts.map((part, i) => (
        <span key={i}>
          {part}
          {i < parts.length - 1 && <mark className="rounded bg-amber-100 px-0.5 text-amber-900">{NOT_KEPT}</mark>}
        </span>
      ))}
    </>
  );
}
