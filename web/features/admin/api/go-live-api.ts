import { useQuery } from '@tanstack/react-query';
import { api, okJson } from '../../../lib/api';

// The go-live checklist (worker/routes/admin/go-live.ts, docs/product.md §6.10): each requirement's state, read live.

/** Under '/api/admin/', so signing out drops it with the other admin reads (session.ts). */
export const goLiveKey = ['/api/admin/go-live'];

export const useGoLiveChecks = () => useQuery({ queryKey: goLiveKey, queryFn: () => okJson(api.admin['go-live'].$get()) });
