import { QueryClientProvider } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import { queryClient } from './query-client';
// Pages with React Query are the pages with zod-validated forms: configure zod before they parse.
import './zod-jitless';

/**
 * Wraps a page in the app's QueryClientProvider (one shared client). Provided per page, not at
 * the root: the content pages (home, services, FAQ...) never load @tanstack/query-core, which
 * keeps the home page under its JavaScript budget; pages with forms or admin data get it.
 */
export function withQueryClient(Page: ComponentType): ComponentType {
  function PageWithQueryClient() {
    return (
      <QueryClientProvider client={queryClient}>
        <Page />
      </QueryClientProvider>
    );
  }
  PageWithQueryClient.displayName = `WithQueryClient(${Page.displayName ?? Page.name ?? 'Page'})`;
  return PageWithQueryClient;
}
