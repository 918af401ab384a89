import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InferRequestType, InferResponseType } from 'hono/client';
import { api, okJson } from '../../../lib/api';

// The newsletter editor's drafts and scheduled issues (docs/product.md §5.9), through the typed client.
export type NewsletterDraft = InferResponseType<(typeof api.admin.newsletter.drafts)[':id']['$get'], 200>;
export type DraftInput = InferRequestType<typeof api.admin.newsletter.drafts.$post>['json'];
export type ScheduleInput = InferRequestType<(typeof api.admin.newsletter.drafts)[':id']['schedule']['$post']>['json'];

export const draftKeys = {
  list: ['/api/admin/newsletter/drafts'],
  one: (id: number) => ['/api/admin/newsletter/drafts', id],
} as const;

// The list is re-read while something is scheduled, so a draft the cron sent shows as sent.
const POLL_SCHEDULED_MS = 30_000;

export const useDrafts = () =>
  useQuery({
    queryKey: draftKeys.list,
    queryFn: () => okJson(api.admin.newsletter.drafts.$get()),
    refetchInterval: (query) => (query.state.data?.some((d) => d.status === 'scheduled' || d.status === 'sending') ? POLL_SCHEDULED_MS : false),
    refetchIntervalInBackground: false,
  });

export const useDraft = (id: number | null) =>
  useQuery({
    queryKey: draftKeys.one(id ?? 0),
    queryFn: () => okJson(api.admin.newsletter.drafts[':id'].$get({ param: { id: String(id) } })),
    enabled: id !== null,
    staleTime: Infinity,
  });

function useDraftSettled() {
  const queryClient = useQueryClient();
  return (draft: NewsletterDraft | null | undefined) => {
    if (draft) queryClient.setQueryData(draftKeys.one(draft.id), draft);
    void queryClient.invalidateQueries({ queryKey: draftKeys.list, exact: true });
  };
}

/** Saves a new draft (id null) or an existing one. */
export function useSaveDraft() {
  const settled = useDraftSettled();
  return useMutation({
    mutationFn: ({ id, ...json }: DraftInput & { id: number | null }) =>
      id === null ? okJson(api.admin.newsletter.drafts.$post({ json })) : okJson(api.admin.newsletter.drafts[':id'].$put({ param: { id: String(id) }, json })),
    onSuccess: (answer) => settled(answer.draft),
  });
}

export function useScheduleDraft() {
  const settled = useDraftSettled();
  return useMutation({
    mutationFn: ({ id, ...json }: ScheduleInput & { id: number }) => okJson(api.admin.newsletter.drafts[':id'].schedule.$post({ param: { id: String(id) }, json })),
    onSuccess: (answer) => settled(answer.draft),
  });
}

export function useCancelSchedule() {
  const settled = useDraftSettled();
  return useMutation({
    mutationFn: (id: number) => okJson(api.admin.newsletter.drafts[':id'].cancel.$post({ param: { id: String(id) } })),
    onSuccess: (answer) => settled(answer.draft),
  });
}

export function useDeleteDraft() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => okJson(api.admin.newsletter.drafts[':id'].$delete({ param: { id: String(id) } })),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: draftKeys.list, exact: true }),
  });
}

/** The issue in the firm's frame, as the live preview shows it. */
export const renderNewsletter = (json: InferRequestType<typeof api.admin.newsletter.render.$post>['json']) => okJson(api.admin.newsletter.render.$post({ json }));

/** The AI draft (or the static template when the model gives none), to open in the editor. */
export const useAiDraft = () => useMutation({ mutationFn: () => okJson(api.admin.newsletter.preview.$get()) });

