import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InferRequestType, InferResponseType } from 'hono/client';
import { api, ApiError, okJson } from '../../../lib/api';

// The firm's availability (worker/routes/admin/availability.ts, docs/product.md §6.4), typed from
// the routes through the client like the rest of the admin API.
export type AdminAvailability = InferResponseType<typeof api.admin.availability.$get, 200>;
export type WeekdayOffer = InferRequestType<typeof api.admin.availability.$put>['json']['weekdays'];
export type BlockedDate = AdminAvailability['blockedDates'][number];
export type BlockDateInput = InferRequestType<(typeof api.admin)['blocked-dates']['$post']>['json'];

export const availabilityKey = ['/api/admin/availability'] as const;

export const useAvailability = (enabled: boolean) =>
  useQuery({ queryKey: availabilityKey, queryFn: () => okJson(api.admin.availability.$get()), enabled });

export function useSaveWeekdays() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (weekdays: WeekdayOffer) => okJson(api.admin.availability.$put({ json: { weekdays } })),
    onSuccess: (view) => queryClient.setQueryData(availabilityKey, view),
  });
}

export function useBlockDate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: BlockDateInput) => okJson(api.admin['blocked-dates'].$post({ json: input })),
    onSuccess: (blocked) => {
      queryClient.setQueryData<AdminAvailability>(availabilityKey, (view) =>
        view && {
          ...view,
          blockedDates: [...view.blockedDates.filter((b) => b.date !== blocked.date), blocked].sort((a, b) => a.date.localeCompare(b.date)),
        },
      );
    },
  });
}

export function useUnblockDate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (date: string) => {
      const res = await api.admin['blocked-dates'][':date'].$delete({ param: { date } });
      if (!res.ok) throw await ApiError.from(res);
    },
    onSuccess: (_none, date) => {
      queryClient.setQueryData<AdminAvailability>(availabilityKey, (view) => view && { ...view, blockedDates: view.blockedDates.filter((b) => b.date !== date) });
    },
  });
}

export type BookingRulesInput = InferRequestType<(typeof api.admin)['booking-rules']['$put']>['json'];

/** PUT /api/admin/booking-rules: the answer is the whole availability view, rules and holidays included. */
export function useSaveBookingRules() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (rules: BookingRulesInput) => okJson(api.admin['booking-rules'].$put({ json: rules })),
    onSuccess: (view) => queryClient.setQueryData(availabilityKey, view),
  });
}
