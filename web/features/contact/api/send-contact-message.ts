import { useMutation } from '@tanstack/react-query';
import type { ContactInput } from '../../../../worker/schemas/contact';
import { apiRequest } from '../../../lib/query-client';

/** POST /api/contact (SPEC 7: the answer's body is not used). */
export function useSendContactMessage() {
  return useMutation({
    mutationFn: async (message: ContactInput) => {
      await apiRequest('POST', '/api/contact', message);
    },
  });
}
