import { useQuery } from '@tanstack/react-query';
import { api, okJson } from '../../../lib/api';

// Whether Turnstile guards the public forms (worker/routes/admin/turnstile.ts): secretSet, siteKeySet.

/** Under '/api/admin/', so signing out drops it with the other admin reads (session.ts). */
export const turnstileStatusKey = ['/api/admin/turnstile'];

export const useTurnstileStatus = (enabled: boolean) =>
  useQuery({ queryKey: turnstileStatusKey, queryFn: () => okJson(api.admin.turnstile.$get()), enabled });
