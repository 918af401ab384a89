import type { InferResponseType } from 'hono/client';
import { useEffect, useState } from 'react';
import type { api as Api } from '../../../lib/api';

// The public newsletter archive's data (GET /api/newsletters and /api/newsletters/:id), read with a
// plain effect: the archive pages are content pages without React Query (web/routes.tsx), and the
// typed client loads only once the page asks, as in the footer sign-up.

export type ArchivedIssueSummary = InferResponseType<typeof Api.newsletters.$get, 200>[number];
export type ArchivedIssue = InferResponseType<(typeof Api.newsletters)[':id']['$get'], 200>;

export type Loaded<T> = { state: 'loading' } | { state: 'ready'; data: T } | { state: 'not-found' } | { state: 'error'; message: string };

function useLoaded<T>(load: () => Promise<T>, key: string): Loaded<T> {
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: 'loading' });
  useEffect(() => {
    let current = true;
    setLoaded({ state: 'loading' });
    load().then(
      (data) => current && setLoaded({ state: 'ready', data }),
      async (error: unknown) => {
        const { ApiError, errorMessage } = await import('../../../lib/api');
        if (!current) return;
        if (error instanceof ApiError && error.status === 404) setLoaded({ state: 'not-found' });
        else setLoaded({ state: 'error', message: errorMessage(error, 'The newsletter archive could not be loaded. Please try again.') });
      },
    );
    return () => {
      current = false;
    };
    // `key` names what `load` reads (a new function every render).
    // eslint-disable-next-line react-hooks/exhaustive-deps -- see above
  }, [key]);
  return loaded;
}

/** The issues that went out, newest first. */
export function useArchivedIssues(): Loaded<ArchivedIssueSummary[]> {
  return useLoaded(async () => {
    const { api, okJson } = await import('../../../lib/api');
    return okJson(api.newsletters.$get());
  }, 'list');
}

/** One issue, with its sanitised HTML (no personal links). */
export function useArchivedIssue(id: string): Loaded<ArchivedIssue> {
  return useLoaded(async () => {
    const { api, okJson } = await import('../../../lib/api');
    return okJson(api.newsletters[':id'].$get({ param: { id } }));
  }, id);
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/**
 * "November 23, 2026" from the API's `sentOn` (the firm's calendar day, worked out by the worker):
 * no Intl formatter, whose first use costs a phone tens of milliseconds while the page hydrates.
 */
export function formatIssueDate(sentOn: string): string {
  const [year, month, day] = sentOn.split('-').map(Number);
  return `${MONTHS[month - 1]} ${day}, ${year}`;
}
