import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/query-client';

export type AdminSession = { authenticated: true; username: string } | { authenticated: false };

export const adminSessionKey = ['/api/admin/session'];

/** Whether this browser holds a valid admin session (the HttpOnly cookie is invisible to JS). */
export function useAdminSession() {
  return useQuery<AdminSession>({ queryKey: adminSessionKey });
}

export function useAdminLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (credentials: { username: string; password: string }) =>
      (await apiRequest('POST', '/api/admin/login', credentials)).json() as Promise<AdminSession>,
    onSuccess: (session) => queryClient.setQueryData(adminSessionKey, session),
  });
}

export function useAdminLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest('POST', '/api/admin/logout'),
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
