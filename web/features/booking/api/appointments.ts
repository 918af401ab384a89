import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AppointmentInput } from '../../../../worker/schemas/appointments';
import { apiRequest } from '../../../lib/query-client';

export interface SlotAvailability {
  time: string;
  available: boolean;
}

export interface BookedAppointment {
  id: number;
  message: string;
  date: string;
  timeSlot: string;
  status: 'requested' | 'confirmed' | 'cancelled';
}

const availabilityKey = (date: string) => [`/api/appointments/availability?date=${date}`];

/** The 7 slots of a day and which are still free; re-read whenever a day is (re)chosen. */
export function useAvailability(date: string | null) {
  return useQuery<{ date: string; slots: SlotAvailability[] }>({
    queryKey: availabilityKey(date ?? ''),
    enabled: date !== null,
    // Someone else may book meanwhile: never trust a cached answer for long.
    staleTime: 0,
    refetchOnMount: 'always',
  });
}

/** POST /api/appointments; afterwards that day's availability is read again. */
export function useBookAppointment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (request: AppointmentInput) => (await apiRequest('POST', '/api/appointments', request)).json() as Promise<BookedAppointment>,
    onSettled: (_data, _error, request) => queryClient.invalidateQueries({ queryKey: availabilityKey(request.date) }),
  });
}
