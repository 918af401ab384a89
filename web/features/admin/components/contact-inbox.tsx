import { Download, Mail, MailOpen, Phone, Reply } from 'lucide-react';
import { useState } from 'react';
import { Badge } from '../../../components/ui/badge';
import { Button, buttonClass } from '../../../components/ui/button';
import { Card, CardContent, CardHeader } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { toast } from '../../../components/ui/use-toast';
import { errorMessage } from '../../../lib/api';
import { useMarkMessageRead, type ContactMessage } from '../api/admin-api';
import { buildContactMessagesCsv, csvFileName } from '../lib/csv';
import { downloadText } from '../lib/download';
import { formatDateTime } from '../lib/format';
import { SectionHeading } from './admin-page-parts';
import { RepliedBadge, ReplyThread } from './reply-thread';
import { useContent } from '../../../lib/content';
import { BreakableAddress } from './breakable-address';

// A year of messages can run into the thousands: render the newest first, older ones on request.
const MESSAGES_PER_PAGE = 25;

/** docs/product.md §6.2: the contact-message cards, the empty state and three skeleton cards while loading. */
export function ContactInbox({
  messages,
  isPending,
  error,
}: {
  messages: ContactMessage[] | undefined;
  isPending: boolean;
  error: Error | null;
}) {
  const unread = messages?.filter((m) => !m.readAt).length ?? 0;
  const [shown, setShown] = useState(MESSAGES_PER_PAGE);

  return (
    <section aria-labelledby="messages-heading" className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex flex-wrap items-center gap-3">
          <SectionHeading id="messages-heading">Contact Messages</SectionHeading>
          {messages && (
            <Badge variant={unread > 0 ? 'default' : 'secondary'} data-testid="unread-count">
              {unread} unread
            </Badge>
          )}
        </div>
        {/* Every loaded message (newest first), not only the ones shown. */}
        <Button
          variant="outline"
          size="sm"
          onClick={() => downloadText(csvFileName('contact-messages'), buildContactMessagesCsv(messages ?? []))}
          disabled={!messages || messages.length === 0}
        >
          <Download className="h-4 w-4" aria-hidden="true" />
          Export messages CSV
        </Button>
      </div>

      {isPending ? (
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
      ) : error ? (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-4 text-sm text-red-800">
          Failed to load contact messages: {errorMessage(error, 'Please try again.')}
        </p>
      ) : !messages || messages.length === 0 ? (
        <Card>
          <CardContent className="text-center" padding="px-6 py-12">
            <Mail className="mx-auto mb-3 h-10 w-10 text-slate-400" aria-hidden="true" />
            <p className="text-lg font-medium text-slate-800">No messages yet</p>
            <p className="text-sm text-slate-600">Contact messages will appear here when customers submit the form.</p>
          </CardContent>
        </Card>
      ) : (
        <>
          <ul className="space-y-4">
            {messages.slice(0, shown).map((m) => (
              <li key={m.id}>
                <MessageCard message={m} />
              </li>
            ))}
          </ul>
          {messages.length > shown && (
            <Button variant="outline" onClick={() => setShown((n) => n + MESSAGES_PER_PAGE)}>
              Show older messages ({messages.length - shown} more)
            </Button>
          )}
        </>
      )}
    </section>
  );
}

function MessageCard({ message: m }: { message: ContactMessage }) {
  const markRead = useMarkMessageRead();
  const isUnread = !m.readAt;
  const toggleRead = () =>
    markRead.mutate(
      { id: m.id, read: isUnread },
      { onError: (error) => toast({ variant: 'destructive', title: 'Error', description: errorMessage(error, 'Failed to update the message') }) },
    );
  const replySubject = encodeURIComponent(`Re: Your message to ${useContent().firm.name}`);

  return (
    <Card data-testid="message-card" data-unread={isUnread} className={isUnread ? 'border-l-4 border-l-brand-600' : ''}>
      <CardHeader className="pb-3">
        <div className="flex flex-wrap items-start justify-between gap-2">
          <div className="min-w-0">
            <h3 className="flex flex-wrap items-center gap-2 font-semibold text-slate-900">
              <span className="break-words">{m.name}</span>
              {isUnread && <Badge>New</Badge>}
              {m.lastRepliedAt && <RepliedBadge />}
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
        <div className="flex flex-wrap gap-2">
          <a className={buttonClass('primary', 'sm')} href={`mailto:${m.email}?subject=${replySubject}`}>
            <Reply className="h-4 w-4" aria-hidden="true" />
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
        </div>
        <ReplyThread messageId={m.id} visitorName={m.name} original={m.message} replied={m.lastRepliedAt !== null} />
      </CardContent>
    </Card>
  );
}
