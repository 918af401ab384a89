import { useMutation } from '@tanstack/react-query';
import { api, okJson } from '../../../lib/api';

/** GET /api/newsletter/unsubscribe?token=: is the link valid (and whose masked address)? Changes nothing. */
export async function checkUnsubscribeLink(token: string) {
  const res = await api.newsletter.unsubscribe.$get({ query: { token } });
  if (!res.ok) return { valid: false };
  return res.json();
}

export function useUnsubscribe() {
  return useMutation({
    mutationFn: (token: string) => okJson(api.newsletter.unsubscribe.$post({ json: { token } })),
  });
}

/** The confirmation page's button: POST /api/newsletter/confirm (a GET of the e-mailed link changes nothing). */
export function useConfirmSubscription() {
  return useMutation({
    mutationFn: (token: string) => okJson(api.newsletter.confirm.$post({ json: { token } })),
  });
}
