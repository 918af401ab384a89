import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, type RenderResult } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, vi } from 'vitest';
import { LazyToaster } from '../../../web/components/layout/lazy-toaster';
import { dismissToast } from '../../../web/components/ui/use-toast';
import { defaultContent } from '#core/content/default-content';
import { ContentProvider } from '../../../web/lib/content';

// What the forms' component tests share (tests/**/*.web.test.tsx, run in happy-dom): the network is
// the only thing replaced. globalThis.fetch answers from the test and records each request; the
// components, their lazily loaded schemas and the typed client (web/lib/api.ts) are the real ones.

/** One request the code under test sent. */
export interface SentRequest {
  method: string;
  /** Path and query, as the typed client (base '/') writes them. */
  url: string;
  /** The JSON body, parsed (undefined without a body). */
  body: unknown;
}

export type Answer = (request: SentRequest) => Response | Promise<Response>;

export const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** Replaces fetch: records every request and answers with `answer`. */
export function captureFetch(answer: Answer): SentRequest[] {
  const sent: SentRequest[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const text = typeof init.body === 'string' ? init.body : undefined;
    const request: SentRequest = { method: init.method ?? 'GET', url, body: text === undefined ? undefined : JSON.parse(text) };
    sent.push(request);
    return answer(request);
  });
  return sent;
}

/**
 * Fakes only Date, set to `now`, for every test of the calling file (timers stay real, so the lazily
 * loaded calendar still loads on its own, as in the browser). Returns `now`.
 */
export function fakeNow(now: Date): Date {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(now);
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  return now;
}

/** A promise to hand out now and settle later (an answer the test holds back). */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/**
 * Renders `ui` with what the app puts around it: the lazily mounted toaster (the real Radix one,
 * web/components/layout/lazy-toaster.tsx), the default content (web/main.tsx provides the
 * published one) and, for the admin dialogs, a React Query client.
 */
export function renderForm(ui: ReactNode): RenderResult {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return render(
    <ContentProvider value={defaultContent}>
      <QueryClientProvider client={queryClient}>
        {ui}
        <LazyToaster />
      </QueryClientProvider>
    </ContentProvider>,
  );
}

/** The toasts on screen: title, description and look, as the Toaster renders them. */
export function shownToasts() {
  return [...document.querySelectorAll<HTMLElement>('li[data-variant]')]
    .filter((li) => li.dataset.state !== 'closed')
    .map((li) => {
      const [title, description] = [...li.querySelectorAll<HTMLElement>('.grid > div')].map((node) => node.textContent);
      return { variant: li.dataset.variant, title, description };
    });
}

/** The analytics events pushed so far (docs/product.md §12). */
export const dataLayer = () => window.dataLayer ?? [];

afterEach(() => {
  cleanup();
  dismissToast();
  window.dataLayer = [];
  vi.unstubAllGlobals();
});
