import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { toast } from '../components/ui/use-toast';
import { useEndSessionOn401, useReadFailures } from '../features/admin/api/admin-api';
import { useChatSessions, useChatTranscript } from '../features/admin/api/chat-sessions-api';
import { AdminSubPage, QueryView, adminScreen } from '../features/admin/components/admin-page-parts';
import { BackToConversations, ChatSessionsList, ChatTranscriptView, TranscriptSkeleton } from '../features/admin/components/chat-transcripts';
import { ListSearch, Pager, useListParams } from '../features/admin/components/list-controls';
import { ApiError, errorMessage, isUnauthorized } from '../lib/api';

/**
 * /admin/chats: the chat assistant's conversations (docs/product.md §4), behind the admin session.
 * `?id=` opens one conversation's transcript, so a transcript has its own address and Back returns
 * to the list.
 */
export default adminScreen({ title: 'Chat Conversations', description: 'Chat assistant transcripts' }, ChatAdministration);

const INTRO = 'What visitors asked the chat assistant and what it answered. Times are in the firm’s time zone; conversations are deleted 30 days after their last message.';

function ChatAdministration() {
  const [searchParams] = useSearchParams();
  const id = searchParams.get('id');
  return (
    <AdminSubPage width="5xl" title="Chat Conversations" intro={INTRO}>
      {id === null ? <ConversationList /> : <Conversation id={id} />}
    </AdminSubPage>
  );
}

const STATUSES = [
  { value: 'handed-off', label: 'Asked for a person' },
  { value: 'assistant-only', label: 'Assistant only' },
];

/** The conversations the search finds, 50 a page (server-side; the address keeps the search and page). */
function ConversationList() {
  const { params, update, query } = useListParams();
  const sessions = useChatSessions(query);
  useReadFailures(sessions, 'Failed to load chat conversations. Please try again.');
  const filtered = Boolean(params.q || params.status || params.from || params.to);
  return (
    <div className="space-y-4">
      <ListSearch label="Search conversations" placeholder="Message text, name, e-mail or phone" params={params} onChange={update} statuses={STATUSES} dateRange />
      <QueryView query={sessions} what="chat conversations">
        {(data) => (
          <div className="space-y-4" aria-busy={sessions.isPlaceholderData}>
            <ChatSessionsList sessions={data.items} filtered={filtered} />
            <Pager label="Conversation pages" page={data.page} total={data.total} onPage={(next) => update({ page: next })} />
          </div>
        )}
      </QueryView>
    </div>
  );
}

// A link to a conversation the purge has since deleted (or a mistyped address) is not an error to toast.
const isGone = (error: unknown) => error instanceof ApiError && (error.status === 404 || error.status === 400);

function Conversation({ id }: { id: string }) {
  const transcript = useChatTranscript(id);
  useEndSessionOn401(transcript);

  useEffect(() => {
    if (transcript.error && !isUnauthorized(transcript.error) && !isGone(transcript.error)) {
      toast({ variant: 'destructive', title: 'Error', description: 'Failed to load the conversation. Please try again.' });
    }
  }, [transcript.error]);

  return (
    <div className="space-y-4">
      <BackToConversations />
      {transcript.isPending ? (
        <TranscriptSkeleton />
      ) : transcript.isError ? (
        isUnauthorized(transcript.error) ? null : (
          <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-4 text-sm text-red-800">
            {isGone(transcript.error)
              ? 'This conversation was not found. It may have been deleted: conversations are kept 30 days after their last message.'
              : `Failed to load the conversation: ${errorMessage(transcript.error, 'Please try again.')}`}
          </p>
        )
      ) : (
        <ChatTranscriptView transcript={transcript.data} />
      )}
    </div>
  );
}
