import { useMutation, useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { useEffect } from 'react';
import { apiRequest } from '../../../lib/query-client';
import { adminSessionKey, type AdminSession } from './session';

// Shapes of the admin API (docs/product.md §11).
export interface ContactMessage {
  id: number;
  name: string;
  email: string;
  phone: string | null;
  message: string;
  createdAt: string;
  readAt: string | null;
}

export interface Appointment {
  id: number;
  name: string;
  email: string;
  phone: string | null;
  serviceType: string;
  date: string;
  timeSlot: string;
  notes: string | null;
  status: 'requested' | 'confirmed' | 'cancelled';
  createdAt: string;
}

export interface RateLimitStats {
  globalCount: number;
  ipCount: number;
}

export interface NewsletterStats {
  activeSubscribers: number;
  totalSent: number;
  lastSent: string | null;
}

export interface SchedulerStatus {
  running: boolean;
  schedule: string;
}

export interface NewsletterPreview {
  subject: string;
  htmlContent: string;
}

export interface Subscriber {
  id: number;
  email: string;
  name: string | null;
  subscriptionDate: string;
  active: 'true' | 'false';
  status?: 'active' | 'pending' | 'unsubscribed';
}

export interface SentNewsletter {
  id: number;
  subject: string;
  content: string;
  sentAt: string;
  recipientCount: number;
  totalRecipients: number;
  failedCount: number;
  status: 'sending' | 'sent';
}

export interface EmailLogEntry {
  id: number;
  to: string;
  subject: string;
  kind: string;
  status: 'queued' | 'sent' | 'stored' | 'failed';
  transport: string;
  error: string | null;
  providerId: string | null;
  createdAt: string;
}

export interface EmailAuthResult {
  provider: string;
  success: boolean;
  detail?: string;
}

export const adminKeys = {
  contactMessages: ['/api/admin/contact-messages'],
  rateLimitStats: ['/api/admin/rate-limit-stats'],
  appointments: ['/api/admin/appointments'],
  newsletterStats: ['/api/admin/newsletter/stats'],
  schedulerStatus: ['/api/admin/scheduler/status'],
  subscribers: ['/api/admin/subscribers'],
  sentNewsletters: ['/api/admin/sent-newsletters'],
  emails: ['/api/admin/emails'],
} as const;

// Polling intervals of docs/product.md §6.2. React Query pauses them while the tab is hidden because
// refetchIntervalInBackground is false, and `enabled` stops them once signed out.
export const POLL_RATE_LIMIT_MS = 30_000;
export const POLL_NEWSLETTER_STATS_MS = 60_000;
export const POLL_SCHEDULER_MS = 10_000;
// A newsletter still going out is re-read this often until it settles (sending resumes on cron ticks).
const POLL_SENDING_MS = 10_000;

const polled = (ms: number) => ({ refetchInterval: ms, refetchIntervalInBackground: false });

export const useContactMessages = (enabled: boolean) => useQuery<ContactMessage[]>({ queryKey: adminKeys.contactMessages, enabled });
export const useAppointments = (enabled: boolean) => useQuery<Appointment[]>({ queryKey: adminKeys.appointments, enabled });
export const useEmailLog = (enabled: boolean) => useQuery<EmailLogEntry[]>({ queryKey: adminKeys.emails, enabled });
export const useSubscribers = (enabled: boolean) => useQuery<Subscriber[]>({ queryKey: adminKeys.subscribers, enabled });

export const useRateLimitStats = (enabled: boolean) =>
  useQuery<RateLimitStats>({ queryKey: adminKeys.rateLimitStats, enabled, ...polled(POLL_RATE_LIMIT_MS) });
export const useNewsletterStats = (enabled: boolean) =>
  useQuery<NewsletterStats>({ queryKey: adminKeys.newsletterStats, enabled, ...polled(POLL_NEWSLETTER_STATS_MS) });
export const useSchedulerStatus = (enabled: boolean) =>
  useQuery<SchedulerStatus>({ queryKey: adminKeys.schedulerStatus, enabled, ...polled(POLL_SCHEDULER_MS) });

export const useSentNewsletters = (enabled: boolean) =>
  useQuery<SentNewsletter[]>({
    queryKey: adminKeys.sentNewsletters,
    enabled,
    refetchInterval: (query) => (query.state.data?.some((n) => n.status === 'sending') ? POLL_SENDING_MS : false),
    refetchIntervalInBackground: false,
  });

/** When the session has expired (any admin read answers 401), show the login card again. */
export function useEndSessionOn401(...queries: UseQueryResult[]) {
  const queryClient = useQueryClient();
  const expired = queries.some((q) => q.error instanceof Error && q.error.message.startsWith('401'));
  useEffect(() => {
    if (expired) queryClient.setQueryData<AdminSession>(adminSessionKey, { authenticated: false });
  }, [expired, queryClient]);
}

const json = async <T,>(method: string, url: string, body?: unknown) => (await apiRequest(method, url, body)).json() as Promise<T>;

export function useMarkMessageRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, read }: { id: number; read: boolean }) => json<ContactMessage>('PATCH', `/api/admin/contact-messages/${id}`, { read }),
    onSuccess: (updated) =>
      queryClient.setQueryData<ContactMessage[]>(adminKeys.contactMessages, (list) => list?.map((m) => (m.id === updated.id ? updated : m))),
  });
}

export function useUpdateAppointmentStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, status }: { id: number; status: 'confirmed' | 'cancelled' }) =>
      json<Appointment>('PATCH', `/api/admin/appointments/${id}`, { status }),
    onSuccess: (updated) => {
      queryClient.setQueryData<Appointment[]>(adminKeys.appointments, (list) => list?.map((a) => (a.id === updated.id ? updated : a)));
      // The visitor was e-mailed: the log has a new line.
      void queryClient.invalidateQueries({ queryKey: adminKeys.emails });
    },
  });
}

export type SchedulerAction = 'start' | 'stop' | 'trigger';

export function useSchedulerAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (action: SchedulerAction) => json<{ message: string }>('POST', `/api/admin/scheduler/${action}`),
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
    mutationFn: () => json<{ sentCount: number; message: string; newsletterId: number }>('POST', '/api/admin/newsletter/send'),
    onSettled: () => refreshNewsletterData(queryClient),
  });
}

/** The dialog's send: the admin's own subject and HTML. */
export function useSendNewsletter() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (newsletter: { subject: string; content: string }) =>
      json<{ message: string; newsletterId: number; recipientCount: number; totalRecipients: number; status: string }>(
        'POST',
        '/api/admin/send-newsletter',
        newsletter,
      ),
    onSettled: () => refreshNewsletterData(queryClient),
  });
}

export const usePreview = (kind: 'quick' | 'ai') =>
  useMutation({
    mutationFn: () => json<NewsletterPreview>('GET', kind === 'ai' ? '/api/admin/newsletter/preview' : '/api/admin/newsletter/preview-static'),
  });

export const useNewsletterTemplate = () => useMutation({ mutationFn: () => json<NewsletterPreview>('GET', '/api/admin/newsletter/template') });

export const useTestEmailAuth = () =>
  useMutation({ mutationFn: () => json<{ results: EmailAuthResult[] }>('POST', '/api/admin/email/test-auth') });

export function useSendTestEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (testEmail: string) => json<{ success: boolean; message: string }>('POST', '/api/admin/email/test-send', { testEmail }),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: adminKeys.emails }),
  });
}

export const useChangePassword = () =>
  useMutation({
    mutationFn: (passwords: { currentPassword: string; newPassword: string }) =>
      json<{ message: string }>('POST', '/api/admin/change-password', passwords),
  });
