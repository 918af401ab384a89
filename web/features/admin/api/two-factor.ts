import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InferRequestType } from 'hono/client';
import { api, okJson } from '../../../lib/api';

// The admin's second factor, optional unless the owner requires it (worker/routes/admin/two-factor.ts, docs/product.md §6.1, §6.8).
const twoFactor = api.admin['two-factor'];

/** Under '/api/admin/', so signing out drops it with the other admin reads (session.ts). */
export const twoFactorKey = ['/api/admin/two-factor'];

export const useTwoFactorStatus = () => useQuery({ queryKey: twoFactorKey, queryFn: () => okJson(twoFactor.$get()) });

/** A new pending secret and its otpauth:// URI (the QR code's content); takes the current password. */
export const useStartTwoFactor = () =>
  useMutation({ mutationFn: (json: InferRequestType<typeof twoFactor.setup.$post>['json']) => okJson(twoFactor.setup.$post({ json })) });

export function useEnableTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (json: InferRequestType<typeof twoFactor.enable.$post>['json']) => okJson(twoFactor.enable.$post({ json })),
    onSuccess: () => queryClient.setQueryData(twoFactorKey, (old: { required: boolean } | undefined) => ({ required: old?.required ?? false, enabled: true })),
  });
}

export function useDisableTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (json: InferRequestType<typeof twoFactor.disable.$post>['json']) => okJson(twoFactor.disable.$post({ json })),
    onSuccess: () => queryClient.setQueryData(twoFactorKey, (old: { required: boolean } | undefined) => ({ required: old?.required ?? false, enabled: false })),
  });
}
