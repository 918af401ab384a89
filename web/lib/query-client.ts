import { QueryClient } from '@tanstack/react-query';

// Every query and mutation names its own call through the typed client (web/lib/api.ts), so there
// is no default query function: a query without one fails loudly instead of guessing a URL.

/**
 * docs/product.md §11: no refetch interval or on focus, never stale, no retries, unused data
 * dropped after 5 min.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      refetchInterval: false,
      refetchOnWindowFocus: false,
      staleTime: Infinity,
      gcTime: 5 * 60 * 1000,
      retry: false,
    },
    mutations: { retry: false },
  },
});
