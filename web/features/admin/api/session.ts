import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InferRequestType, InferResponseType } from 'hono/client';
import { api, okJson } from '../../../lib/api';

/** Signed in (and as whom) or not: GET /api/admin/session's answer (worker/routes/admin/session.ts). */
export type AdminSession = InferResponseType<typeof api.admin.session.$get, 200>;
/** A signed-in session: the username, name, role (owner or staff) and what the policy asks of it. */
export type SignedInSession = Extract<AdminSession, { authenticated: true }>;

export const adminSessionKey = ['/api/admin/session'];

/** Whether this browser holds a valid admin session (the HttpOnly cookie is invisible to JS). */
export function useAdminSession() {
  return useQuery({ queryKey: adminSessionKey, queryFn: () => okJson(api.admin.session.$get()) });
}

export function useAdminLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (credentials: InferRequestType<typeof api.admin.login.$post>['json']) => okJson(api.admin.login.$post({ json: credentials })),
    onSuccess: (session) => queryClient.setQueryData(adminSessionKey, session),
  });
}

export function useAdminLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => okJson(api.admin.logout.$post()),
    onSuccess: () => {
      // Mark the session as ended on the query the screens observe (removing and re-creating it
      // would leave their observers on the removed one), then drop every admin list.
      queryClient.setQueryData<AdminSession>(adminSessionKey, { authenticated: false });
      queryClient.removeQueries({
        predicate: (q) => String(q.queryKey[0]).startsWith('/api/admin/') && q.queryKey[0] !== adminSessionKey[0],
      });
    },
  });
}

/**
 * Saves the signed-in account's own name and e-mail (PATCH /api/admin/account/profile, the first
 * sign-in's "Tell us who you are"): the session then has both and the panel opens.
 */
export function useSaveOwnProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (json: InferRequestType<(typeof api.admin.account.profile)['$patch']>['json']) => okJson(api.admin.account.profile.$patch({ json })),
    onSuccess: (saved) =>
      queryClient.setQueryData<AdminSession>(adminSessionKey, (old) => (old?.authenticated ? { ...old, name: saved.name, email: saved.email, needsProfile: false } : old)),
  });
}
