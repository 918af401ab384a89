import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InferResponseType } from 'hono/client';
import { api, isUnauthorized, okJson } from '../../../lib/api';
import { adminKeys } from './admin-api';
import { adminSessionKey, type AdminSession } from './session';

// The subscriber screen's reads (docs/product.md §6.3): one searched page of 50 and the three counts
// (worker/routes/admin/newsletter.ts), and every row only when the CSV is downloaded. The keys start
// with adminKeys.subscribers, so a delete, an import or a send that invalidates the list refreshes
// the page and the counts too (admin-api.ts).

export type SubscriberPage = InferResponseType<typeof api.admin.subscribers.search.$get, 200>;
export type SubscriberCounts = InferResponseType<typeof api.admin.subscribers.counts.$get, 200>;

export const subscriberSearchKey = (query: Record<string, string>) => [...adminKeys.subscribers, 'search', query] as const;
export const subscriberCountsKey = [...adminKeys.subscribers, 'counts'] as const;

/** One page of the search; the page shown stays while the next one loads (no flash of a spinner). */
export const useSubscriberSearch = (query: Record<string, string>) =>
  useQuery({
    queryKey: subscriberSearchKey(query),
    queryFn: () => okJson(api.admin.subscribers.search.$get({ query })),
    placeholderData: keepPreviousData,
  });

export const useSubscriberCounts = () => useQuery({ queryKey: subscriberCountsKey, queryFn: () => okJson(api.admin.subscribers.counts.$get()) });

/**
 * Every subscriber, read afresh when asked (the CSV export: GET /api/admin/subscribers). A 401 ends
 * the session on screen as a screen's own read would (useEndSessionOn401), then throws as any failure.
 */
export function useFetchAllSubscribers() {
  const queryClient = useQueryClient();
  return async () => {
    try {
      return await queryClient.fetchQuery({ queryKey: adminKeys.subscribers, queryFn: () => okJson(api.admin.subscribers.$get()), staleTime: 0 });
    } catch (error) {
      if (isUnauthorized(error)) queryClient.setQueryData<AdminSession>(adminSessionKey, { authenticated: false });
      throw error;
    }
  };
}
