import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InferResponseType } from 'hono/client';
import { api, okJson } from '../../../lib/api';
import { adminKeys } from './admin-api';

// Replies from the inbox (worker/routes/admin/contact-messages.ts, docs/product.md §6.2), typed from
// the routes through the client like the rest of the admin API.
export type ContactReply = InferResponseType<(typeof api.admin)['contact-messages'][':id']['replies']['$get'], 200>[number];

// Under the inbox's key, so signing out drops them with the other admin lists (session.ts).
const repliesKey = (id: number) => [`/api/admin/contact-messages/${id}/replies`] as const;

/** The conversation under a message, oldest first; nothing is read until `enabled`. */
export const useContactReplies = (id: number, enabled: boolean) =>
  useQuery({ queryKey: repliesKey(id), queryFn: () => okJson(api.admin['contact-messages'][':id'].replies.$get({ param: { id: String(id) } })), enabled });

/** Sends a reply; the conversation, the inbox ("Replied") and the e-mail log are read again after. */
export function useSendReply(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: string) => okJson(api.admin['contact-messages'][':id'].replies.$post({ param: { id: String(id) }, json: { body } })),
    onSettled: () => {
      for (const key of [repliesKey(id), adminKeys.contactMessages, adminKeys.emails]) void queryClient.invalidateQueries({ queryKey: key });
    },
  });
}
