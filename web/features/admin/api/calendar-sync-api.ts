import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InferRequestType, InferResponseType } from 'hono/client';
import { api, ApiError, okJson } from '../../../lib/api';

// The firm's calendar in both directions (worker/routes/admin/calendar-sync.ts, docs/product.md
// §6.4): the private feed's status and rotation, and the busy calendars.
export type FeedStatus = InferResponseType<(typeof api.admin)['calendar-feed']['$get'], 200>;
export type RotatedFeed = InferResponseType<(typeof api.admin)['calendar-feed']['rotate']['$post'], 201>;
export type BusyCalendar = InferResponseType<(typeof api.admin)['busy-calendars']['$get'], 200>['calendars'][number];
export type BusyCalendarInput = InferRequestType<(typeof api.admin)['busy-calendars']['$post']>['json'];

export const feedKey = ['/api/admin/calendar-feed'] as const;
export const busyCalendarsKey = ['/api/admin/busy-calendars'] as const;

export const useFeedStatus = () => useQuery({ queryKey: feedKey, queryFn: () => okJson(api.admin['calendar-feed'].$get()) });

export function useRotateFeed() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => okJson(api.admin['calendar-feed'].rotate.$post()),
    onSuccess: (rotated) => queryClient.setQueryData<FeedStatus>(feedKey, { active: true, createdAt: rotated.createdAt }),
  });
}

export const useBusyCalendars = () => useQuery({ queryKey: busyCalendarsKey, queryFn: () => okJson(api.admin['busy-calendars'].$get()) });

/** The list with one calendar put in (added or refreshed) or taken out. */
function useUpdateList() {
  const queryClient = useQueryClient();
  return (change: (list: BusyCalendar[]) => BusyCalendar[]) =>
    queryClient.setQueryData<{ calendars: BusyCalendar[] }>(busyCalendarsKey, (data) => data && { calendars: change(data.calendars) });
}

const withCalendar = (calendar: BusyCalendar) => (list: BusyCalendar[]) => [...list.filter((c) => c.id !== calendar.id), calendar].sort((a, b) => a.id - b.id);

export function useAddBusyCalendar() {
  const update = useUpdateList();
  return useMutation({
    mutationFn: (input: BusyCalendarInput) => okJson(api.admin['busy-calendars'].$post({ json: input })),
    onSuccess: (calendar) => update(withCalendar(calendar)),
  });
}

export function useRefreshBusyCalendar() {
  const update = useUpdateList();
  return useMutation({
    mutationFn: (id: number) => okJson(api.admin['busy-calendars'][':id'].refresh.$post({ param: { id: String(id) } })),
    onSuccess: (calendar) => update(withCalendar(calendar)),
  });
}

export function useRemoveBusyCalendar() {
  const update = useUpdateList();
  return useMutation({
    mutationFn: async (id: number) => {
      const res = await api.admin['busy-calendars'][':id'].$delete({ param: { id: String(id) } });
      if (!res.ok) throw await ApiError.from(res);
    },
    onSuccess: (_none, id) => update((list) => list.filter((c) => c.id !== id)),
  });
}
