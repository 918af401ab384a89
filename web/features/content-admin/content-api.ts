import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InferRequestType, InferResponseType } from 'hono/client';
import { api, ApiError, okJson } from '../../lib/api';

// The content API (worker/routes/admin/content.ts, docs/product.md §6.6) as the content screens read
// and write it, typed from the routes through the client like the rest of the admin API.
export type ContentState = InferResponseType<typeof api.admin.content.$get, 200>;
export type ContentDocument = ContentState['published']['content'];
export type DraftRequest = InferRequestType<typeof api.admin.content.draft.$put>['json'];
export type ContentVersion = InferResponseType<typeof api.admin.content.versions.$get, 200>[number];
export type ContentReview = InferResponseType<typeof api.admin.content.review.$get, 200>;

export const contentKey = ['/api/admin/content'] as const;
export const versionsKey = ['/api/admin/content/versions'] as const;
export const reviewKey = ['/api/admin/content/review'] as const;

/** The content state (published version, draft, revision) the content screens edit: the admin API, not the site's rendering context (web/lib/content.tsx useContent). */
export const useContentState = () => useQuery({ queryKey: contentKey, queryFn: () => okJson(api.admin.content.$get()), staleTime: 0 });
export const useContentVersions = () => useQuery({ queryKey: versionsKey, queryFn: () => okJson(api.admin.content.versions.$get()), staleTime: 0 });

export function useSaveDraft() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: DraftRequest) => okJson(api.admin.content.draft.$put({ json: body })),
    onSuccess: (draft) => queryClient.setQueryData<ContentState>(contentKey, (state) => state && { ...state, draft }),
  });
}

/** What a publish would change (GET .../review), read afresh each time the confirmation opens. */
export const useContentReview = (enabled: boolean) =>
  useQuery({ queryKey: reviewKey, queryFn: () => okJson(api.admin.content.review.$get()), enabled, staleTime: 0, gcTime: 0 });

/**
 * Publishes the draft revision the owner reviewed; a draft saved since is refused (409), and the
 * confirmation reads the review again itself (after a publish there is no draft to review).
 */
export function usePublish() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (reviewed: { basedOn: number; revision: number }) => okJson(api.admin.content.publish.$post({ json: reviewed })),
    onSettled: () => Promise.all([queryClient.invalidateQueries({ queryKey: contentKey }), queryClient.invalidateQueries({ queryKey: versionsKey })]),
  });
}

export function useRestore() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (version: number) => okJson(api.admin.content.restore.$post({ json: { version } })),
    onSettled: () => Promise.all([queryClient.invalidateQueries({ queryKey: contentKey }), queryClient.invalidateQueries({ queryKey: versionsKey })]),
  });
}

/** The body of a 409: who changed the content since the screen loaded it. */
export type Conflict =
  | { kind: 'published'; version: number; publishedAt: string | null; publishedBy: string | null }
  | { kind: 'draft'; updatedAt: string | null; updatedBy: string | null };

export function conflictOf(error: unknown): Conflict | null {
  if (!(error instanceof ApiError) || error.status !== 409 || typeof error.body !== 'object' || error.body === null) return null;
  const body = error.body as { current?: { version: number; publishedAt: string | null; publishedBy: string | null }; draft?: { updatedAt: string; updatedBy: string } | null };
  if (body.current) return { kind: 'published', ...body.current };
  return { kind: 'draft', updatedAt: body.draft?.updatedAt ?? null, updatedBy: body.draft?.updatedBy ?? null };
}

/** A 400's field messages, keyed by the path inside the document ('firm.contact.email'). */
export function fieldErrorsOf(error: unknown): Record<string, string> | null {
  if (!(error instanceof ApiError) || error.status !== 400 || typeof error.body !== 'object' || error.body === null) return null;
  const fields = (error.body as { fields?: Record<string, string[]> }).fields;
  if (!fields) return null;
  const out: Record<string, string> = {};
  for (const [key, messages] of Object.entries(fields)) out[key.replace(/^content\./, '')] = messages[0];
  return out;
}
