import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/query-client';

/** GET /api/newsletter/unsubscribe?token=: is the link valid? Changes nothing. */
export async function checkUnsubscribeLink(token: string): Promise<{ valid: boolean; email?: string }> {
  const res = await fetch(`/api/newsletter/unsubscribe?token=${encodeURIComponent(token)}`, { credentials: 'include' });
  if (!res.ok) return { valid: false };
  return (await res.json()) as { valid: boolean; email?: string };
}

export function useUnsubscribe() {
  return useMutation({
    mutationFn: async (token: string) => (await (await apiRequest('POST', '/api/newsletter/unsubscribe', { token })).json()) as { message: string },
  });
}
