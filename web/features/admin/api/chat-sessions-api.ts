import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { InferResponseType } from 'hono/client';
import { api, okJson } from '../../../lib/api';

// The chat transcripts (worker/routes/admin/chat-sessions.ts), typed from the routes through the
// client like the rest of the admin API (docs/decisions/0008-typed-api-contract.md).
export type ChatSessionsPage = InferResponseType<(typeof api.admin)['chat-sessions']['$get'], 200>;
export type ChatSessionSummary = ChatSessionsPage['items'][number];
export type ChatTranscript = InferResponseType<(typeof api.admin)['chat-sessions'][':id']['$get'], 200>;
export type ChatTranscriptMessage = ChatTranscript['messages'][number];

// Keys start with the path they read, so signing out drops them with the other admin lists (session.ts).
export const chatSessionsKey = ['/api/admin/chat-sessions'] as const;
const transcriptKey = (id: string) => [`/api/admin/chat-sessions/${id}`] as const;

/** One page of the conversations the search finds (core/schemas/admin-list.ts); the shown page stays while the next loads. */
export const useChatSessions = (query: Record<string, string>) =>
  useQuery({
    queryKey: [...chatSessionsKey, query],
    queryFn: () => okJson(api.admin['chat-sessions'].$get({ query })),
    placeholderData: keepPreviousData,
  });

/** One conversation and its messages; nothing is read while `id` is null. */
export const useChatTranscript = (id: string | null) =>
  useQuery({
    queryKey: transcriptKey(id ?? ''),
    queryFn: () => okJson(api.admin['chat-sessions'][':id'].$get({ param: { id: id ?? '' } })),
    enabled: id !== null,
  });
