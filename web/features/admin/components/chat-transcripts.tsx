import { ArrowLeft, Bot, MessagesSquare, ShieldAlert, User } from 'lucide-react';
import { Link } from 'react-router';
import { Badge } from '../../../components/ui/badge';
import { buttonClass } from '../../../components/ui/button';
import { Card, CardContent, CardHeader } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { TableCell, TableRow, WideTable } from '../../../components/ui/table';
import type { ChatSessionSummary, ChatTranscript, ChatTranscriptMessage } from '../api/chat-sessions-api';
import { useContactMessages } from '../api/admin-api';
import { formatDateTime } from '../lib/format';
import { RepliedBadge, ReplyThread } from './reply-thread';
import { BreakableAddress } from './breakable-address';

// The chat assistant's conversations (docs/product.md §4) as the admin reads them on /admin/chats:
// the list, and one conversation as a transcript. Every text is rendered as text, never as HTML:
// it is what a visitor (or the model) wrote.

/** Where a conversation's transcript opens: the same page with its id in the query string. */
export const transcriptPath = (id: string) => `/admin/chats?id=${encodeURIComponent(id)}`;

function HandOffBadge({ session }: { session: ChatSessionSummary }) {
  if (!session.handedOff) return null;
  return (
    <span className="inline-flex flex-wrap items-center gap-x-2 gap-y-1">
      <Badge variant="warning">Handed off</Badge>
      {session.contactMessageId !== null && <span className="text-xs text-slate-600">Contact message #{session.contactMessageId}</span>}
    </span>
  );
}

const messageCountLabel = (n: number) => `${n} ${n === 1 ? 'message' : 'messages'}`;

function ViewLink({ session }: { session: ChatSessionSummary }) {
  return (
    <Link to={transcriptPath(session.id)} className={buttonClass('outline', 'sm')}>
      View<span className="sr-only"> the conversation started {formatDateTime(session.startedAt)}</span>
    </Link>
  );
}

/** The conversations, newest activity first: a card per conversation on phones, a table from md up. */
export function ChatSessionsList({ sessions, filtered = false }: { sessions: ChatSessionSummary[]; filtered?: boolean }) {
  if (sessions.length === 0 && filtered) {
    return (
      <Card>
        <CardContent className="text-center" padding="px-6 py-12">
          <p className="text-lg font-medium text-slate-800">No conversations match your search.</p>
          <p className="text-sm text-slate-600">Try other words, another status or a wider range of dates.</p>
        </CardContent>
      </Card>
    );
  }
  if (sessions.length === 0) {
    return (
      <Card>
        <CardContent className="text-center" padding="px-6 py-12">
          <MessagesSquare className="mx-auto mb-3 h-10 w-10 text-slate-400" aria-hidden="true" />
          <p className="text-lg font-medium text-slate-800">No chat conversations yet.</p>
          <p className="text-sm text-slate-600">Conversations with the chat assistant will appear here.</p>
        </CardContent>
      </Card>
    );
  }
  return (
    <>
      {/* Phones: one block per conversation (five columns do not fit 390 px). */}
      <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white md:hidden" aria-label="Chat conversations">
        {sessions.map((s) => (
          <li key={s.id} className="space-y-2 p-3 text-sm" data-testid="chat-session-item">
            <p className="break-words font-medium text-slate-900">{s.firstQuestion || '-'}</p>
            <p className="text-xs text-slate-600">
              Started {formatDateTime(s.startedAt)} · last message {formatDateTime(s.lastActivityAt)} · {messageCountLabel(s.messageCount)}
            </p>
            <div className="flex flex-wrap items-center justify-between gap-2">
              <HandOffBadge session={s} />
              <span className="ml-auto">
                <ViewLink session={s} />
              </span>
            </div>
          </li>
        ))}
      </ul>
      <WideTable label="Chat conversations" columns={['Started', 'Last activity', 'Messages', 'First question', 'Hand-off', 'Transcript']}>
        {sessions.map((s) => (
          <TableRow key={s.id} data-testid="chat-session-row">
            <TableCell className="whitespace-nowrap">{formatDateTime(s.startedAt)}</TableCell>
            <TableCell className="whitespace-nowrap">{formatDateTime(s.lastActivityAt)}</TableCell>
            <TableCell className="text-right tabular-nums">{s.messageCount}</TableCell>
            <TableCell className="max-w-md">
              <p className="line-clamp-2 break-words" title={s.firstQuestion}>
                {s.firstQuestion || '-'}
              </p>
            </TableCell>
            <TableCell>{s.handedOff ? <HandOffBadge session={s} /> : <span className="text-slate-500">-</span>}</TableCell>
            <TableCell>
              <ViewLink session={s} />
            </TableCell>
          </TableRow>
        ))}
      </WideTable>
    </>
  );
}

/** A few lines the shape of a transcript while it loads. */
export function TranscriptSkeleton() {
  return (
    <Card aria-busy="true" aria-label="Loading the conversation">
      <CardContent className="space-y-4" padding="p-6">
        {[0, 1, 2].map((i) => (
          <div key={i} className="space-y-2">
            <Skeleton className="h-4 w-1/4" />
            <Skeleton className="h-12 w-full" />
          </div>
        ))}
      </CardContent>
    </Card>
  );
}

export function BackToConversations() {
  return (
    <Link to="/admin/chats" className="inline-flex items-center gap-1 text-sm text-brand-700 hover:underline">
      <ArrowLeft className="h-4 w-4" aria-hidden="true" />
      All conversations
    </Link>
  );
}

/** One conversation: when it ran, whether it was handed off, then every message in order. */
export function ChatTranscriptView({ transcript }: { transcript: ChatTranscript }) {
  const { session, messages } = transcript;
  return (
    <Card aria-labelledby="transcript-heading">
      <CardHeader className="gap-2 border-b border-slate-100" padding="p-4 sm:p-6">
        <h2 id="transcript-heading" className="text-lg font-semibold text-brand-800">
          Conversation of {formatDateTime(session.startedAt)}
        </h2>
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm text-slate-700 sm:gap-x-6">
          <dt className="font-medium text-slate-600">Last message</dt>
          <dd>{formatDateTime(session.lastActivityAt)}</dd>
          <dt className="font-medium text-slate-600">Messages</dt>
          <dd>{session.messageCount}</dd>
          <dt className="font-medium text-slate-600">Hand-off</dt>
          <dd>
            {session.handedOff ? (
              <>
                Asked for a person on {formatDateTime(session.handedOffAt)}
                {session.contactMessageId !== null && <> (contact message #{session.contactMessageId} in the inbox)</>}
              </>
            ) : (
              'No'
            )}
          </dd>
        </dl>
      </CardHeader>
      <CardContent padding="p-4 sm:p-6">
        {messages.length === 0 ? (
          <p className="text-sm text-slate-600">No messages are stored for this conversation.</p>
        ) : (
          <ol className="space-y-4" aria-label="Messages">
            {messages.map((m) => (
              <li key={m.id}>
                <TranscriptMessage message={m} />
              </li>
            ))}
          </ol>
        )}
        {session.contactMessageId !== null && <HandOffReplies contactMessageId={session.contactMessageId} />}
      </CardContent>
    </Card>
  );
}

/** A hand-off is a contact message: the reply to the visitor, and the conversation with them, as in the inbox (docs/product.md §6.2). */
function HandOffReplies({ contactMessageId }: { contactMessageId: number }) {
  const inbox = useContactMessages(true);
  const message = inbox.data?.find((m) => m.id === contactMessageId);
  if (!message) return null;
  return (
    <section aria-labelledby="handoff-replies-heading" className="mt-6 space-y-3 border-t border-slate-100 pt-4">
      <h3 id="handoff-replies-heading" className="flex flex-wrap items-center gap-2 font-semibold text-brand-800">
        Reply to {message.name}
        {message.lastRepliedAt && <RepliedBadge />}
      </h3>
      <p className="text-sm text-slate-700">
        <BreakableAddress address={message.email} />
      </p>
      <ReplyThread messageId={message.id} visitorName={message.name} original={message.message} replied={message.lastRepliedAt !== null} />
    </section>
  );
}

function TranscriptMessage({ message: m }: { message: ChatTranscriptMessage }) {
  const visitor = m.role === 'user';
  const Icon = visitor ? User : Bot;
  const tone = m.refused ? 'border-red-300 bg-red-50' : visitor ? 'border-slate-200 bg-slate-50' : 'border-brand-100 bg-brand-50';
  return (
    <article className={`rounded-lg border p-3 sm:p-4 ${tone} ${visitor ? 'sm:mr-12' : 'sm:ml-12'}`} data-testid="transcript-message" data-role={m.role} data-refused={m.refused}>
      <header className="mb-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
        <span className="inline-flex items-center gap-1 font-semibold text-slate-900">
          <Icon className="h-4 w-4" aria-hidden="true" />
          {visitor ? 'Visitor' : 'Assistant'}
        </span>
        <time dateTime={m.createdAt} className="text-xs text-slate-600">
          {formatDateTime(m.createdAt)}
        </time>
        {m.refused && (
          <Badge variant="destructive">
            <ShieldAlert className="h-3 w-3" aria-hidden="true" />
            Refused by the guard rails
          </Badge>
        )}
      </header>
      <p className="whitespace-pre-wrap break-words text-sm text-slate-800">{m.content}</p>
    </article>
  );
}
