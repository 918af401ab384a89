import { keepPreviousData, useMutation, useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import type { InferRequestType, InferResponseType } from 'hono/client';
import { useEffect } from 'react';
import { toast } from '../../../components/ui/use-toast';
import { api, isUnauthorized, okJson } from '../../../lib/api';
import { adminSessionKey, type AdminSession } from './session';

// The admin API's shapes (docs/product.md §11) are the routes' own answers (worker/routes/admin/),
// inferred through the typed client: a field renamed there fails the build here.
export type ContactMessage = InferResponseType<(typeof api.admin)['contact-messages']['$get'], 200>[number];
export type Appointment = InferResponseType<typeof api.admin.appointments.$get, 200>[number];
/** A page of the inbox's search with its figures (unread in the inbox, every message). */
export type InboxPage = InferResponseType<(typeof api.admin)['contact-messages']['search']['$get'], 200>;
/** A page of the appointments' search with its figures (upcoming, past, awaiting the firm). */
export type AppointmentPage = InferResponseType<typeof api.admin.appointments.search.$get, 200>;
/** What a searched list's query holds (web/features/admin/components/list-controls.tsx useListParams). */
type ListQuery = Record<string, string>;
export type RateLimitStats = InferResponseType<(typeof api.admin)['rate-limit-stats']['$get'], 200>;
export type NewsletterStats = InferResponseType<typeof api.admin.newsletter.stats.$get, 200>;
export type SchedulerStatus = InferResponseType<typeof api.admin.scheduler.status.$get, 200>;
export type NewsletterPreview = InferResponseType<typeof api.admin.newsletter.preview.$get, 200>;
export type Subscriber = InferResponseType<typeof api.admin.subscribers.$get, 200>[number];
export type SentNewsletter = InferResponseType<(typeof api.admin)['sent-newsletters']['$get'], 200>[number];
export type EmailLogEntry = InferResponseType<typeof api.admin.emails.$get, 200>[number];
export type EmailMessage = InferResponseType<(typeof api.admin.emails)[':id']['$get'], 200>;
export type DeliveryEventsStatus = InferResponseType<(typeof api.admin)['delivery-events']['$get'], 200>;
export type EmailAuthResult = InferResponseType<(typeof api.admin.email)['test-auth']['$post'], 200>['results'][number];

// React Query's cache keys: each is the path its query reads, so signing out can drop every
// '/api/admin/' entry at once (session.ts).
export const adminKeys = {
  contactMessages: ['/api/admin/contact-messages'],
  rateLimitStats: ['/api/admin/rate-limit-stats'],
  appointments: ['/api/admin/appointments'],
  newsletterStats: ['/api/admin/newsletter/stats'],
  schedulerStatus: ['/api/admin/scheduler/status'],
  subscribers: ['/api/admin/subscribers'],
  sentNewsletters: ['/api/admin/sent-newsletters'],
  emails: ['/api/admin/emails'],
  deliveryEvents: ['/api/admin/delivery-events'],
} as const;

// Polling intervals of docs/product.md §6.2. React Query pauses them while the tab is hidden because
// refetchIntervalInBackground is false, and `enabled` stops them once signed out.
export const POLL_RATE_LIMIT_MS = 30_000;
export const POLL_NEWSLETTER_STATS_MS = 60_000;
export const POLL_SCHEDULER_MS = 10_000;
// A newsletter still going out is re-read this often until it settles (sending resumes on cron ticks).
const POLL_SENDING_MS = 10_000;

const polled = (ms: number) => ({ refetchInterval: ms, refetchIntervalInBackground: false });

export const useContactMessages = (enabled: boolean) =>
  useQuery({ queryKey: adminKeys.contactMessages, queryFn: () => okJson(api.admin['contact-messages'].$get()), enabled });
export const useAppointments = (enabled: boolean) =>
  useQuery({ queryKey: adminKeys.appointments, queryFn: () => okJson(api.admin.appointments.$get()), enabled });

// The searched lists (docs/product.md §6.2) live under their list's key, so what changes the list
// (a read marker, an archive, a reply, a status) reads every page of it again. While a new page or
// search loads, the one shown stays (keepPreviousData), marked busy by the list.

/** One page of the inbox's search: `query` as useListParams('inbox') gives it. */
export const useInboxPage = (query: ListQuery, enabled: boolean) =>
  useQuery({
    queryKey: [...adminKeys.contactMessages, 'search', query],
    queryFn: () => okJson(api.admin['contact-messages'].search.$get({ query })),
    enabled,
    placeholderData: keepPreviousData,
  });

/** One page of the appointments' search, upcoming or past (`when`). */
export const useAppointmentPage = (query: ListQuery & { when?: 'upcoming' | 'past' }, enabled: boolean) =>
  useQuery({
    queryKey: [...adminKeys.appointments, 'search', query],
    queryFn: () => okJson(api.admin.appointments.search.$get({ query })),
    enabled,
    placeholderData: keepPreviousData,
  });
/**
 * The slots of a day that can still be booked, as the public booking form sees them (GET
 * /api/appointments/availability): what the admin may pick when confirming a request without a
 * time. Read afresh each time the confirm dialog opens; the server refuses a slot taken meanwhile.
 */
export const useFreeSlots = (date: string, enabled: boolean) =>
  useQuery({
    queryKey: ['/api/appointments/availability', date],
    queryFn: async () => (await okJson(api.appointments.availability.$get({ query: { date } }))).slots.filter((s) => s.available).map((s) => s.time),
    enabled,
    staleTime: 0,
  });
export const useEmailLog = (enabled: boolean) => useQuery({ queryKey: adminKeys.emails, queryFn: () => okJson(api.admin.emails.$get()), enabled });
/** One message of the log, whole (GET /api/admin/emails/:id): what the e-mail log's dialog shows. */
export const useEmailMessage = (id: number | null) =>
  useQuery({
    queryKey: [...adminKeys.emails, id],
    queryFn: () => okJson(api.admin.emails[':id'].$get({ param: { id: String(id) } })),
    enabled: id !== null,
  });
export const useSubscribers = (enabled: boolean) =>
  useQuery({ queryKey: adminKeys.subscribers, queryFn: () => okJson(api.admin.subscribers.$get()), enabled });

export const useRateLimitStats = (enabled: boolean) =>
  useQuery({ queryKey: adminKeys.rateLimitStats, queryFn: () => okJson(api.admin['rate-limit-stats'].$get()), enabled, ...polled(POLL_RATE_LIMIT_MS) });
export const useNewsletterStats = (enabled: boolean) =>
  useQuery({ queryKey: adminKeys.newsletterStats, queryFn: () => okJson(api.admin.newsletter.stats.$get()), enabled, ...polled(POLL_NEWSLETTER_STATS_MS) });
export const useSchedulerStatus = (enabled: boolean) =>
  useQuery({ queryKey: adminKeys.schedulerStatus, queryFn: () => okJson(api.admin.scheduler.status.$get()), enabled, ...polled(POLL_SCHEDULER_MS) });

export const useSentNewsletters = (enabled: boolean) =>
  useQuery({
    queryKey: adminKeys.sentNewsletters,
    queryFn: () => okJson(api.admin['sent-newsletters'].$get()),
    enabled,
    refetchInterval: (query) => (query.state.data?.some((n) => n.status === 'sending') ? POLL_SENDING_MS : false),
    refetchIntervalInBackground: false,
  });

/** When the session has expired (any admin read answers 401), show the login card again. */
export function useEndSessionOn401(...queries: UseQueryResult[]) {
  const queryClient = useQueryClient();
  const expired = queries.some((q) => isUnauthorized(q.error));
  useEffect(() => {
    if (expired) queryClient.setQueryData<AdminSession>(adminSessionKey, { authenticated: false });
  }, [expired, queryClient]);
}

/**
 * A toast when a screen's data fails to load. An Unauthorized answer is left to the session check,
 * silently (docs/product.md §10; useEndSessionOn401 signs the screen out).
 */
export function useLoadFailureToast(error: unknown, description: string) {
  useEffect(() => {
    if (error && !isUnauthorized(error)) toast({ variant: 'destructive', title: 'Error', description });
  }, [error, description]);
}

/** An admin screen's read failing: a 401 shows the login card again, any other failure the toast `description`. */
export function useReadFailures(query: UseQueryResult, description: string) {
  useEndSessionOn401(query);
  useLoadFailureToast(query.error, description);
}

export function useMarkMessageRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, read }: { id: number } & InferRequestType<(typeof api.admin)['contact-messages'][':id']['$patch']>['json']) =>
      okJson(api.admin['contact-messages'][':id'].$patch({ param: { id: String(id) }, json: { read } })),
    onSuccess: (updated) => {
      // Shown at once in whatever list holds it; then read again (a filter may no longer match it).
      replaceMessage(queryClient, updated);
      void queryClient.invalidateQueries({ queryKey: adminKeys.contactMessages });
    },
  });
}

/** The message as the server answered it, in every cached list and page that holds it. */
function replaceMessage(queryClient: ReturnType<typeof useQueryClient>, updated: ContactMessage) {
  queryClient.setQueriesData<ContactMessage[] | InboxPage>({ queryKey: adminKeys.contactMessages }, (data) => {
    if (Array.isArray(data)) return data.map((m) => (m.id === updated.id ? updated : m));
    if (data && 'items' in data) return { ...data, items: data.items.map((m) => (m.id === updated.id ? { ...m, ...updated } : m)) };
    return data;
  });
}

/** Archive or unarchive a message (docs/product.md §6.2): it leaves the list it is in, so the lists are read again. */
export function useArchiveMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, archived }: { id: number } & InferRequestType<(typeof api.admin)['contact-messages'][':id']['archive']['$patch']>['json']) =>
      okJson(api.admin['contact-messages'][':id'].archive.$patch({ param: { id: String(id) }, json: { archived } })),
    onSuccess: (updated) => replaceMessage(queryClient, updated),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: adminKeys.contactMessages }),
  });
}

/** Every message (GET /api/admin/contact-messages, SPEC.md's list), read when the CSV export asks for it. */
export const fetchAllContactMessages = () => okJson(api.admin['contact-messages'].$get());
/** Every appointment (GET /api/admin/appointments), read when the CSV export asks for it. */
export const fetchAllAppointments = () => okJson(api.admin.appointments.$get());

export function useUpdateAppointmentStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...json }: { id: number } & InferRequestType<(typeof api.admin.appointments)[':id']['$patch']>['json']) =>
      okJson(api.admin.appointments[':id'].$patch({ param: { id: String(id) }, json })),
    onSuccess: (updated) => {
      queryClient.setQueriesData<Appointment[] | AppointmentPage>({ queryKey: adminKeys.appointments }, (data) => {
        if (Array.isArray(data)) return data.map((a) => (a.id === updated.id ? updated : a));
        if (data && 'items' in data) return { ...data, items: data.items.map((a) => (a.id === updated.id ? updated : a)) };
        return data;
      });
      // The status filter and the awaiting count may have changed; the visitor was e-mailed: the log has a new line.
      for (const key of [adminKeys.appointments, adminKeys.emails]) void queryClient.invalidateQueries({ queryKey: key });
    },
  });
}

/** Erasure on request (docs/product.md §6.3): the row leaves the list; the log and counts change too. */
export function useDeleteSubscriber() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => okJson(api.admin.subscribers[':id'].$delete({ param: { id: String(id) } })),
    onSuccess: (_answer, id) => queryClient.setQueryData<Subscriber[]>(adminKeys.subscribers, (list) => list?.filter((s) => s.id !== id)),
    onSettled: () => {
      for (const key of [adminKeys.subscribers, adminKeys.newsletterStats, adminKeys.emails]) void queryClient.invalidateQueries({ queryKey: key });
    },
  });
}

export function useResendConfirmation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => okJson(api.admin.subscribers[':id']['resend-confirmation'].$post({ param: { id: String(id) } })),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: adminKeys.emails }),
  });
}

export type SchedulerAction = 'start' | 'stop' | 'trigger';

export function useSchedulerAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (action: SchedulerAction) => okJson(api.admin.scheduler[':action{start|stop|trigger}'].$post({ param: { action } })),
    // docs/product.md §6.2: the status is re-read after each action, whatever its outcome.
    onSettled: (_data, _error, action) => {
      void queryClient.invalidateQueries({ queryKey: adminKeys.schedulerStatus });
      if (action === 'trigger') refreshNewsletterData(queryClient);
    },
  });
}

function refreshNewsletterData(queryClient: ReturnType<typeof useQueryClient>) {
  for (const key of [adminKeys.newsletterStats, adminKeys.sentNewsletters, adminKeys.emails, adminKeys.subscribers]) {
    void queryClient.invalidateQueries({ queryKey: key });
  }
}

/** The panel's Send Newsletter: sends the generated newsletter now. */
export function useSendGeneratedNewsletter() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => okJson(api.admin.newsletter.send.$post()),
    onSettled: () => refreshNewsletterData(queryClient),
  });
}

/** The dialog's send: the admin's own subject and HTML. */
export function useSendNewsletter() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (newsletter: InferRequestType<(typeof api.admin)['send-newsletter']['$post']>['json']) =>
      okJson(api.admin['send-newsletter'].$post({ json: newsletter })),
    onSettled: () => refreshNewsletterData(queryClient),
  });
}

/**
 * The dialog's "Send a test": this issue to one address, marked [TEST]. It changes no newsletter
 * data, only the e-mail log.
 */
export function useSendTestNewsletter() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (test: InferRequestType<(typeof api.admin.newsletter)['test-send']['$post']>['json']) =>
      okJson(api.admin.newsletter['test-send'].$post({ json: test })),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: adminKeys.emails }),
  });
}

export const usePreview = (kind: 'quick' | 'ai') =>
  useMutation({
    mutationFn: () => okJson(kind === 'ai' ? api.admin.newsletter.preview.$get() : api.admin.newsletter['preview-static'].$get()),
  });

export const useNewsletterTemplate = () => useMutation({ mutationFn: () => okJson(api.admin.newsletter.template.$get()) });

export const useTestEmailAuth = () =>
  useMutation({ mutationFn: () => okJson(api.admin.email['test-auth'].$post()) });

export function useSendTestEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (testEmail: string) => okJson(api.admin.email['test-send'].$post({ json: { testEmail } })),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: adminKeys.emails }),
  });
}

/** Whether MailChannels posts delivery events here (configured: a MailChannels key is set). */
export const useDeliveryEvents = () =>
  useQuery({ queryKey: adminKeys.deliveryEvents, queryFn: () => okJson(api.admin['delivery-events'].$get()), retry: false });

export function useEnrollDeliveryEvents() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => okJson(api.admin['delivery-events'].enroll.$post()),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: adminKeys.deliveryEvents }),
  });
}

export const useChangePassword = () =>
  useMutation({
    mutationFn: (passwords: InferRequestType<(typeof api.admin)['change-password']['$post']>['json']) =>
      okJson(api.admin['change-password'].$post({ json: passwords })),
  });
