import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InferRequestType, InferResponseType } from 'hono/client';
import { api, okJson } from '../../../lib/api';

// Accounts, invitations, sessions and the two-factor policy (worker/routes/admin/users.ts and
// invitations.ts, docs/product.md §6.8). Keys under '/api/admin/', so signing out drops them.

export type AdminAccount = InferResponseType<typeof api.admin.users.$get, 200>['users'][number];
export type PendingInvitation = InferResponseType<typeof api.admin.users.$get, 200>['invitations'][number];
export type AdminSessionRow = InferResponseType<(typeof api.admin.users)[':id']['sessions']['$get'], 200>[number];
export type InviteRequest = InferRequestType<typeof api.admin.users.invitations.$post>['json'];

export const usersKey = ['/api/admin/users'];
const sessionsKey = (id: number) => ['/api/admin/users/sessions', id];

export const useAccounts = () => useQuery({ queryKey: usersKey, queryFn: () => okJson(api.admin.users.$get()) });

export const useAccountSessions = (id: number, enabled: boolean) =>
  useQuery({ queryKey: sessionsKey(id), queryFn: () => okJson(api.admin.users[':id'].sessions.$get({ param: { id: String(id) } })), enabled });

export function useInvite() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: (json: InviteRequest) => okJson(api.admin.users.invitations.$post({ json })), onSettled: () => queryClient.invalidateQueries({ queryKey: usersKey }) });
}

export function useRevokeInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => okJson(api.admin.users.invitations[':id'].revoke.$post({ param: { id: String(id) } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: usersKey }),
  });
}

export function useResendInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => okJson(api.admin.users.invitations[':id'].resend.$post({ param: { id: String(id) } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: usersKey }),
  });
}

/** An owner has a single-use password-reset link e-mailed to an account (never a password). */
export function useSendPasswordReset() {
  return useMutation({ mutationFn: (id: number) => okJson(api.admin.users[':id']['password-reset'].$post({ param: { id: String(id) } })) });
}

export function useUpdateAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...json }: { id: number; role?: 'owner' | 'staff'; canSendNewsletters?: boolean }) =>
      okJson(api.admin.users[':id'].$patch({ param: { id: String(id) }, json })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: usersKey }),
  });
}

export function useSetAccountActive() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, active }: { id: number; active: boolean }) =>
      okJson(active ? api.admin.users[':id'].reactivate.$post({ param: { id: String(id) } }) : api.admin.users[':id'].deactivate.$post({ param: { id: String(id) } })),
    onSettled: (_data, _error, { id }) => {
      void queryClient.invalidateQueries({ queryKey: usersKey });
      void queryClient.invalidateQueries({ queryKey: sessionsKey(id) });
    },
  });
}

export function useEndSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, sessionId }: { id: number; sessionId: string }) =>
      okJson(api.admin.users[':id'].sessions[':sessionId'].$delete({ param: { id: String(id), sessionId } })),
    onSettled: (_data, _error, { id }) => queryClient.invalidateQueries({ queryKey: sessionsKey(id) }),
  });
}

export function useSaveSecuritySettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (json: { requireTwoFactor: boolean }) => okJson(api.admin['security-settings'].$put({ json })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: usersKey }),
  });
}

/** Whom an invitation link invites (or why it no longer works). */
export const useInvitation = (token: string) =>
  useQuery({ queryKey: ['invitation', token], queryFn: () => okJson(api.admin.invitations.check.$post({ json: { token } })), retry: false, enabled: token !== '' });

export const useAcceptInvitation = () =>
  useMutation({ mutationFn: (json: InferRequestType<typeof api.admin.invitations.accept.$post>['json']) => okJson(api.admin.invitations.accept.$post({ json })) });

/** The invitee's authenticator, enrolled on the acceptance page (proven by the link's token). */
export const useInvitationTwoFactor = () => useMutation({ mutationFn: (token: string) => okJson(api.admin.invitations['two-factor'].$post({ json: { token } })) });

/** Whose password a reset link sets (or why it no longer works). */
export const usePasswordReset = (token: string) =>
  useQuery({ queryKey: ['password-reset', token], queryFn: () => okJson(api.admin['password-resets'].check.$post({ json: { token } })), retry: false, enabled: token !== '' });

export const useCompletePasswordReset = () =>
  useMutation({ mutationFn: (json: InferRequestType<(typeof api.admin)['password-resets']['complete']['$post']>['json']) => okJson(api.admin['password-resets'].complete.$post({ json })) });
