import { QueryClient, type QueryFunction } from '@tanstack/react-query';

/**
 * docs/product.md §11: a non-OK answer becomes the error "status: body text" (or the status text
 * when empty).
 */
export async function throwIfNotOk(res: Response): Promise<void> {
  if (!res.ok) {
    const text = (await res.text()) || res.statusText;
    throw new Error(`${res.status}: ${text}`);
  }
}

/** docs/product.md §11: every call sends cookies; bodies are JSON. */
export async function apiRequest(method: string, url: string, data?: unknown): Promise<Response> {
  const res = await fetch(url, {
    method,
    headers: data !== undefined ? { 'Content-Type': 'application/json' } : {},
    body: data !== undefined ? JSON.stringify(data) : undefined,
    credentials: 'include',
  });
  await throwIfNotOk(res);
  return res;
}

/**
 * The message to show a person for an error from apiRequest: the server's JSON `message` when
 * there is one, otherwise the raw "status: body" text.
 */
export function errorMessage(error: unknown, fallback: string): string {
  if (!(error instanceof Error) || !error.message) return fallback;
  const match = /^\d{3}: ([\s\S]*)$/.exec(error.message);
  if (!match) return error.message;
  try {
    const body = JSON.parse(match[1]) as { message?: unknown };
    if (typeof body.message === 'string' && body.message) return body.message;
  } catch {
    // plain-text body
  }
  return match[1] || fallback;
}

type UnauthorizedBehavior = 'returnNull' | 'throw';

/** The default data read: GET the query key's URL and parse JSON; optionally 401 -> null. */
export function getQueryFn<T>(options: { on401: UnauthorizedBehavior }): QueryFunction<T> {
  return async ({ queryKey }) => {
    const res = await fetch(queryKey.join('/'), { credentials: 'include' });
    if (options.on401 === 'returnNull' && res.status === 401) return null as T;
    await throwIfNotOk(res);
    return (await res.json()) as T;
  };
}

/**
 * docs/product.md §11: no refetch interval or on focus, never stale, no retries, unused data
 * dropped after 5 min.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      queryFn: getQueryFn({ on401: 'throw' }),
      refetchInterval: false,
      refetchOnWindowFocus: false,
      staleTime: Infinity,
      gcTime: 5 * 60 * 1000,
      retry: false,
    },
    mutations: { retry: false },
  },
});
