import { Archive, ArchiveRestore, Download, Mail, MailOpen, Phone, Reply, SearchX } from 'lucide-react';
import { useState } from 'react';
import { Badge } from '../../../components/ui/badge';
import { Button, buttonClass } from '../../../components/ui/button';
import { Card, CardContent, CardHeader } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { toast } from '../../../components/ui/use-toast';
import { errorMessage } from '../../../lib/api';
import { fetchAllContactMessages, useArchiveMessage, useInboxPage, useMarkMessageRead, type ContactMessage } from '../api/admin-api';
import { buildContactMessagesCsv } from '../lib/csv';
import { formatDateTime } from '../lib/format';
import { useCsvExport } from '../lib/use-csv-export';
import { LoadFailure, SectionHeading } from './admin-page-parts';
import { ListSearch, Pager, useListParams, type ListParams } from './list-controls';
import { RepliedBadge, ReplyThread } from './reply-thread';
import { useContent } from '../../../lib/content';
import { BreakableAddress } from './breakable-address';

// The inbox's filters (core/schemas/contact.ts INBOX_STATUSES); with none, every message not archived.
const INBOX_FILTERS = [
  { value: 'unread', label: 'Unread' },
  { value: 'read', label: 'Read' },
  { value: 'replied', label: 'Replied' },
  { value: 'archived', label: 'Archived' },
];

/** The panel's inbox search, as the address holds it ("inbox-q", "inbox-page"...): the inbox and the panel's badge read the same page. */
export const useInboxSearch = () => useListParams('inbox');

const isFiltered = (p: ListParams) => Boolean(p.q || p.status || p.from || p.to);

/**
 * docs/product.md §6.2: the contact-message cards, searched and paged by the server (50 a page), the
 * empty state and three skeleton cards while loading; archived messages only under "Archived".
 */
export function ContactInbox() {
  const { params, update, query } = useInboxSearch();
  const inbox = useInboxPage(query, true);
  const page = inbox.data;
  // Every message (newest first, archived ones too), not only the page shown.
  const { exporting, exportCsv } = useCsvExport('contact-messages', async () => buildContactMessagesCsv(await fetchAllContactMessages()), 'The messages could not be exported');

  return (
    <section aria-labelledby="messages-heading" className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex flex-wrap items-center gap-3">
          <SectionHeading id="messages-heading">Contact Messages</SectionHeading>
          {page && (
            <Badge variant={page.unread > 0 ? 'default' : 'secondary'} data-testid="unread-count">
              {page.unread} unread
            </Badge>
          )}
        </div>
        <Button variant="outline" size="sm" onClick={() => void exportCsv()} disabled={!page || page.all === 0 || exporting}>
          <Download className="h-4 w-4" aria-hidden="true" />
          Export messages CSV
        </Button>
      </div>

      {/* Offered once there is anything to find; the very first message brings it. */}
      {(Boolean(page?.all) || isFiltered(params)) && (
        <ListSearch
          label="Search messages"
          params={params}
          onChange={update}
          placeholder="Name, e-mail, phone, text"
          statuses={INBOX_FILTERS}
          allLabel="All but archived"
          dateRange
        />
      )}

      {inbox.isPending ? (
        <div className="space-y-4" aria-busy="true" aria-label="Loading messages">
          {[0, 1, 2].map((i) => (
            <Card key={i} data-testid="message-skeleton">
              <CardHeader>
                <Skeleton className="h-5 w-1/3" />
                <Skeleton className="h-4 w-1/2" />
              </CardHeader>
              <CardContent className="space-y-2">
                <Skeleton className="h-4 w-full" />
                <Skeleton className="h-4 w-5/6" />
              </CardContent>
            </Card>
          ))}
        </div>
      ) : inbox.error ? (
        <LoadFailure what="contact messages" error={inbox.error} />
      ) : !page || page.items.length === 0 ? (
        page && page.total > 0 ? (
          // A page past the end (the last message of it archived, or an old link): the pager leads back.
          <Pager label="Message pages" page={params.page} total={page.total} onPage={(n) => update({ page: n })} />
        ) : isFiltered(params) ? (
          <NoMatch params={params} onClear={() => update({ q: '', status: undefined, from: undefined, to: undefined })} />
        ) : (
          <Card>
            <CardContent className="text-center" padding="px-6 py-12">
              <Mail className="mx-auto mb-3 h-10 w-10 text-slate-400" aria-hidden="true" />
              <p className="text-lg font-medium text-slate-800">No messages yet</p>
              <p className="text-sm text-slate-600">Contact messages will appear here when customers submit the form.</p>
            </CardContent>
          </Card>
        )
      ) : (
        <>
          {isFiltered(params) && (
            <p className="text-sm text-slate-700" role="status" data-testid="inbox-result-count">
              {page.total === 1 ? '1 message matches' : `${new Intl.NumberFormat('en-US').format(page.total)} messages match`}
              {params.q ? ` “${params.q}”` : ''}.
            </p>
          )}
          <ul className="space-y-4" aria-busy={inbox.isPlaceholderData} aria-label="Messages">
            {page.items.map((m) => (
              <li key={m.id}>
                <MessageCard message={m} />
              </li>
            ))}
          </ul>
          <Pager label="Message pages" page={params.page} total={page.total} onPage={(n) => update({ page: n })} />
        </>
      )}
    </section>
  );
}

/** A search or filter that finds nothing: says what was looked for, and offers to clear it. */
function NoMatch({ params, onClear }: { params: ListParams; onClear: () => void }) {
  const onlyArchived = params.status === 'archived' && !params.q && !params.from && !params.to;
  const title = onlyArchived ? 'No archived messages.' : params.q ? `No messages match “${params.q}”.` : 'No messages match these filters.';
  return (
    <Card>
      <CardContent className="space-y-3 text-center" padding="px-6 py-10">
        <SearchX className="mx-auto h-10 w-10 text-slate-400" aria-hidden="true" />
        <p className="text-lg font-medium text-slate-800" role="status">
          {title}
        </p>
        <p className="text-sm text-slate-600">
          {onlyArchived ? 'Messages you archive are kept here.' : 'The search looks in names, e-mail addresses, phone numbers and the messages themselves.'}
        </p>
        <Button variant="outline" size="sm" onClick={onClear}>
          Clear search and filters
        </Button>
      </CardContent>
    </Card>
  );
}

function MessageCard({ message: m }: { message: ContactMessage }) {
  const markRead = useMarkMessageRead();
  const archive = useArchiveMessage();
  const [replying, setReplying] = useState(false);
  const isUnread = !m.readAt;
  const isArchived = m.archivedAt !== null;
  const failed = (fallback: string) => (error: Error) => toast({ variant: 'destructive', title: 'Error', description: errorMessage(error, fallback) });
  const toggleRead = () => markRead.mutate({ id: m.id, read: isUnread }, { onError: failed('Failed to update the message') });
  const toggleArchive = () =>
    archive.mutate(
      { id: m.id, archived: !isArchived },
      {
        onSuccess: () =>
          toast({
            title: isArchived ? 'Message back in the inbox' : 'Message archived',
            description: isArchived ? `${m.name}'s message is in the inbox again.` : `${m.name}'s message is under Status: Archived.`,
          }),
        onError: failed(isArchived ? 'Failed to unarchive the message' : 'Failed to archive the message'),
      },
    );
  const replySubject = encodeURIComponent(`Re: Your message to ${useContent().firm.name}`);

  return (
    <Card data-testid="message-card" data-unread={isUnread} data-archived={isArchived} className={isUnread && !isArchived ? 'border-l-4 border-l-brand-600' : ''}>
      <CardHeader className="pb-3">
        <div className="flex flex-wrap items-start justify-between gap-2">
          <div className="min-w-0">
            <h3 className="flex flex-wrap items-center gap-2 font-semibold text-slate-900">
              <span className="break-words">{m.name}</span>
              {isUnread && <Badge>New</Badge>}
              {m.lastRepliedAt && <RepliedBadge />}
              {isArchived && <Badge variant="outline">Archived</Badge>}
            </h3>
            <p className="text-sm text-slate-700">
              <BreakableAddress address={m.email} />
            </p>
            {m.phone && <p className="text-sm text-slate-700">{m.phone}</p>}
          </div>
          <div className="text-right text-xs text-slate-500">
            <p>{formatDateTime(m.createdAt)}</p>
            <p>ID: {m.id}</p>
          </div>
        </div>
      </CardHeader>
      <CardContent className="space-y-4">
        {/* Plain text only: React escapes it, so markup in a message is shown, never run. */}
        <p data-testid="message-text" className="whitespace-pre-wrap break-words text-sm text-slate-800">
          {m.message}
        </p>
        {/* The in-app Reply is the main action (sent from the firm's address, kept with the message, marks it read); the mail client's is the other way. */}
        <div className="flex flex-wrap gap-2">
          <Button size="sm" icon={Reply} onClick={() => setReplying(true)} disabled={replying} aria-expanded={replying}>
            Reply
          </Button>
          <a className={buttonClass('outline', 'sm')} href={`mailto:${m.email}?subject=${replySubject}`}>
            <Mail className="h-4 w-4" aria-hidden="true" />
            Reply via Email
          </a>
          {m.phone && (
            <a className={buttonClass('outline', 'sm')} href={`tel:${m.phone.replace(/[^\d+]/g, '')}`}>
              <Phone className="h-4 w-4" aria-hidden="true" />
              Call
            </a>
          )}
          <Button variant="ghost" size="sm" onClick={toggleRead} disabled={markRead.isPending}>
            {isUnread ? <MailOpen className="h-4 w-4" aria-hidden="true" /> : <Mail className="h-4 w-4" aria-hidden="true" />}
            {isUnread ? 'Mark as read' : 'Mark as unread'}
          </Button>
          <Button variant="ghost" size="sm" icon={isArchived ? ArchiveRestore : Archive} onClick={toggleArchive} disabled={archive.isPending}>
            {isArchived ? 'Unarchive' : 'Archive'}
          </Button>
        </div>
        <ReplyThread
          messageId={m.id}
          visitorName={m.name}
          original={m.message}
          replied={m.lastRepliedAt !== null}
          composer={{ open: replying, onOpenChange: setReplying }}
        />
      </CardContent>
    </Card>
  );
}
