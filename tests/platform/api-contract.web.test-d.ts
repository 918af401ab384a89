// The API contract the SPA relies on, checked by the compiler (`npm run typecheck`, part of
// `npm run check`), not at run time: each answer the screens read, inferred from the worker's
// routes through the typed client (web/lib/api.ts). A route that renames, drops or retypes one of
// these fields fails the build here, and in the screen that reads it (docs/decisions/0008).
// `toMatchObjectType` checks the fields listed and allows more, as the screens do; `toExtend` also
// allows an answer narrower than what the screen reads (a literal message, a union of outcomes), so
// it comes with `.not.toBeNever()`: an answer the route no longer gives would pass it vacuously.
import type { InferRequestType, InferResponseType } from 'hono/client';
import { expectTypeOf } from 'vitest';
import type { BookingTimeSlot } from '#core/content/booking';
import type { api } from '../../web/lib/api';

type Status = 'requested' | 'confirmed' | 'cancelled';
/** The bad-input answer of worker/middleware/validate.ts, shared by every validated route. */
type Invalid = { message: string; fields: Record<string, string[]> };

// Public forms (docs/product.md §2, §3, §11).
expectTypeOf<InferRequestType<typeof api.contact.$post>['json']>().toMatchObjectType<{
  name: string;
  email: string;
  phone?: string | null;
  message: string;
  website?: string;
  turnstileToken?: string;
}>();
expectTypeOf<InferResponseType<typeof api.contact.$post, 201>>().toEqualTypeOf<{ message: string }>();
expectTypeOf<InferResponseType<typeof api.contact.$post, 400>>().toEqualTypeOf<Invalid>();
expectTypeOf<InferResponseType<typeof api.contact.$post, 429>>().toEqualTypeOf<{ message: string }>();

expectTypeOf<InferRequestType<typeof api.appointments.availability.$get>>().toEqualTypeOf<{ query: { date: string } }>();
expectTypeOf<InferResponseType<typeof api.appointments.availability.$get, 200>>().toMatchObjectType<{ date: string }>();
expectTypeOf<InferResponseType<typeof api.appointments.availability.$get, 200>['slots'][number]>().toEqualTypeOf<{
  time: BookingTimeSlot;
  available: boolean;
}>();

expectTypeOf<InferRequestType<typeof api.appointments.$post>['json']>().toMatchObjectType<{
  name: string;
  email: string;
  phone?: string | null;
  // One of the published content's service types: the route checks it (400), not the type.
  serviceType: string;
  date: string;
  // Optional (docs/product.md §3): absent, null or '' is a request without a time.
  timeSlot?: BookingTimeSlot | '' | null;
  notes?: string | null;
  turnstileToken?: string;
}>();
expectTypeOf<InferResponseType<typeof api.appointments.$post, 201>>().toMatchObjectType<{
  id: number;
  message: string;
  date: string;
  timeSlot: string | null;
  status: Status;
}>();
expectTypeOf<InferResponseType<typeof api.appointments.$post, 409>>().toExtend<{ message: string }>();
expectTypeOf<InferResponseType<typeof api.appointments.$post, 409>>().not.toBeNever();
expectTypeOf<InferResponseType<typeof api.appointments.$post, 429>>().toEqualTypeOf<{ message: string }>();

// Chat (§4) and newsletter (§5).
expectTypeOf<InferRequestType<typeof api.chat.$post>['json']>().toEqualTypeOf<{ message: string; sessionId: string }>();
expectTypeOf<InferResponseType<typeof api.chat.$post, 200>>().toEqualTypeOf<{
  role: 'assistant';
  content: string;
  sources: { path: string; title: string }[];
  offerHandoff: boolean;
}>();
expectTypeOf<InferResponseType<typeof api.chat.$post, 429>>().toEqualTypeOf<{ message: string }>();
expectTypeOf<InferResponseType<typeof api.chat.$post, 409>>().toEqualTypeOf<{ message: string }>();
expectTypeOf<InferRequestType<typeof api.chat.handoff.$post>['json']>().toMatchObjectType<{
  sessionId: string;
  name: string;
  email: string;
  phone?: string | null;
  note?: string | null;
  turnstileToken?: string;
}>();
expectTypeOf<InferResponseType<typeof api.chat.handoff.$post, 201>>().toEqualTypeOf<{ message: string }>();
expectTypeOf<InferResponseType<typeof api.chat.handoff.$post, 404>>().toEqualTypeOf<{ message: string }>();

expectTypeOf<InferRequestType<typeof api.newsletter.subscribe.$post>['json']>().toMatchObjectType<{ email: string; name?: string; turnstileToken?: string }>();
expectTypeOf<InferResponseType<typeof api.newsletter.subscribe.$post, 200>>().toEqualTypeOf<{ message: string }>();
expectTypeOf<InferRequestType<typeof api.newsletter.unsubscribe.$get>>().toEqualTypeOf<{ query: { token?: string } }>();
expectTypeOf<InferResponseType<typeof api.newsletter.unsubscribe.$get, 200>>().toEqualTypeOf<{ valid: boolean; email?: string }>();
expectTypeOf<InferRequestType<typeof api.newsletter.unsubscribe.$post>>().toEqualTypeOf<{ json: { token?: string } }>();
expectTypeOf<InferResponseType<typeof api.newsletter.unsubscribe.$post, 200>>().toEqualTypeOf<{ message: string }>();
expectTypeOf<InferResponseType<(typeof api)['site-config']['$get'], 200>>().toEqualTypeOf<{ gtmId: string | null; turnstileSiteKey: string | null }>();

// Admin (§6): the session, the lists and the actions' answers.
type SignedInAccount = { authenticated: true; username: string; name: string; email: string | null; role: 'owner' | 'staff'; canSendNewsletters: boolean; mustEnrolTwoFactor: boolean; needsProfile: boolean };
expectTypeOf<InferResponseType<typeof api.admin.session.$get, 200>>().toEqualTypeOf<{ authenticated: false } | SignedInAccount>();
expectTypeOf<InferRequestType<typeof api.admin.login.$post>['json']>().toEqualTypeOf<{ username: string; password: string; code?: string | undefined }>();
expectTypeOf<InferResponseType<typeof api.admin.login.$post, 200>>().toEqualTypeOf<SignedInAccount>();
expectTypeOf<InferResponseType<typeof api.admin.login.$post, 401>>().toEqualTypeOf<{ message: string }>();
expectTypeOf<InferResponseType<typeof api.admin.login.$post, 429>>().toEqualTypeOf<{ message: string }>();
expectTypeOf<InferRequestType<(typeof api.admin)['change-password']['$post']>['json']>().toEqualTypeOf<{
  currentPassword: string;
  newPassword: string;
}>();
expectTypeOf<InferResponseType<(typeof api.admin)['change-password']['$post'], 200>>().toEqualTypeOf<{ message: string }>();
expectTypeOf<InferResponseType<typeof api.admin.turnstile.$get, 200>>().toEqualTypeOf<{ secretSet: boolean; siteKeySet: boolean }>();
expectTypeOf<InferResponseType<(typeof api.admin)['two-factor']['$get'], 200>>().toEqualTypeOf<{ enabled: boolean; required: boolean }>();
expectTypeOf<InferRequestType<(typeof api.admin)['account']['profile']['$patch']>['json']>().toEqualTypeOf<{ name: string; email: string; currentPassword?: string | undefined }>();
expectTypeOf<InferResponseType<(typeof api.admin)['account']['profile']['$patch'], 200>>().toEqualTypeOf<{ name: string; email: string }>();
expectTypeOf<InferRequestType<(typeof api.admin)['two-factor']['setup']['$post']>['json']>().toEqualTypeOf<{ password: string }>();
expectTypeOf<InferResponseType<(typeof api.admin)['two-factor']['setup']['$post'], 200>>().toEqualTypeOf<{ secret: string; otpauthUri: string }>();
expectTypeOf<InferRequestType<(typeof api.admin)['two-factor']['enable']['$post']>['json']>().toEqualTypeOf<{ password: string; code: string }>();
expectTypeOf<InferResponseType<(typeof api.admin)['two-factor']['enable']['$post'], 200>>().toEqualTypeOf<{ enabled: true; recoveryCodes: string[] }>();
expectTypeOf<InferRequestType<(typeof api.admin)['two-factor']['disable']['$post']>['json']>().toEqualTypeOf<{ password: string; code: string }>();

expectTypeOf<InferResponseType<(typeof api.admin)['contact-messages']['$get'], 200>[number]>().toMatchObjectType<{
  id: number;
  name: string;
  email: string;
  phone: string | null;
  message: string;
  createdAt: string;
  readAt: string | null;
}>();
expectTypeOf<InferRequestType<(typeof api.admin)['contact-messages'][':id']['$patch']>['json']>().toEqualTypeOf<{ read: boolean }>();

// Spelt out here rather than imported from the route, so a change to the route's type fails this contract.
type ChatSessionSummary = { id: string; startedAt: string; lastActivityAt: string; messageCount: number; firstQuestion: string; handedOff: boolean; handedOffAt: string | null; contactMessageId: number | null };
expectTypeOf<InferResponseType<(typeof api.admin)['chat-sessions']['$get'], 200>['items'][number]>().toMatchObjectType<ChatSessionSummary>();
expectTypeOf<InferResponseType<(typeof api.admin)['chat-sessions']['$get'], 200>>().toMatchObjectType<{ total: number; page: number; pageSize: number }>();
expectTypeOf<InferRequestType<(typeof api.admin)['chat-sessions'][':id']['$get']>>().toEqualTypeOf<{ param: { id: string } }>();
expectTypeOf<InferResponseType<(typeof api.admin)['chat-sessions'][':id']['$get'], 200>['session']>().toMatchObjectType<ChatSessionSummary>();
expectTypeOf<InferResponseType<(typeof api.admin)['chat-sessions'][':id']['$get'], 200>['messages'][number]>().toMatchObjectType<{
  id: number;
  role: 'user' | 'assistant';
  content: string;
  refused: boolean;
  createdAt: string;
}>();
expectTypeOf<InferResponseType<(typeof api.admin)['chat-sessions'][':id']['$get'], 404>>().toEqualTypeOf<{ message: string }>();
expectTypeOf<InferResponseType<(typeof api.admin)['chat-sessions'][':id']['$get'], 400>>().toEqualTypeOf<Invalid>();

expectTypeOf<InferResponseType<typeof api.admin.appointments.$get, 200>[number]>().toMatchObjectType<{
  id: number;
  name: string;
  email: string;
  phone: string | null;
  serviceType: string;
  date: string;
  timeSlot: string | null;
  notes: string | null;
  status: Status;
  createdAt: string;
}>();
expectTypeOf<InferRequestType<(typeof api.admin.appointments)[':id']['$patch']>['json']>().toEqualTypeOf<{
  status: 'confirmed' | 'cancelled';
  timeSlot?: BookingTimeSlot | undefined;
}>();
expectTypeOf<InferResponseType<(typeof api.admin.appointments)[':id']['$patch'], 400>>().toExtend<{ message: string }>();
expectTypeOf<InferResponseType<(typeof api.admin.appointments)[':id']['$patch'], 409>>().toEqualTypeOf<{ message: string }>();

expectTypeOf<InferResponseType<(typeof api.admin)['rate-limit-stats']['$get'], 200>>().toMatchObjectType<{
  globalCount: number;
  globalCap: number;
  ipCount: number;
  contact: { count: number; cap: number };
  booking: { count: number; cap: number };
}>();
expectTypeOf<InferResponseType<typeof api.admin.newsletter.stats.$get, 200>>().toMatchObjectType<{
  activeSubscribers: number;
  totalSent: number;
  lastSent: string | null;
}>();
expectTypeOf<InferResponseType<typeof api.admin.scheduler.status.$get, 200>>().toMatchObjectType<{ running: boolean; schedule: string }>();
expectTypeOf<
  InferResponseType<(typeof api.admin.scheduler)[':action{start|stop|trigger}']['$post'], 200>
>().toEqualTypeOf<{ message: string }>();

for (const _preview of [null! as typeof api.admin.newsletter.preview.$get, null! as (typeof api.admin.newsletter)['preview-static']['$get']]) {
  expectTypeOf<InferResponseType<typeof _preview, 200>>().toMatchObjectType<{ subject: string; htmlContent: string }>();
}
// The AI preview says when it is the static template (docs/product.md §5.6).
expectTypeOf<InferResponseType<typeof api.admin.newsletter.preview.$get, 200>>().toMatchObjectType<{ aiUnavailable: boolean }>();
expectTypeOf<InferResponseType<typeof api.admin.newsletter.template.$get, 200>>().toMatchObjectType<{ subject: string; htmlContent: string }>();

expectTypeOf<InferResponseType<typeof api.admin.subscribers.$get, 200>[number]>().toMatchObjectType<{
  id: number;
  email: string;
  name: string | null;
  subscriptionDate: string;
  active: 'true' | 'false';
  suppressionReason: 'bounced' | 'complained' | null;
  suppressionDetail: string | null;
  suppressedAt: string | null;
}>();
expectTypeOf<InferResponseType<typeof api.admin.subscribers.$get, 200>[number]['status']>().toEqualTypeOf<
  'active' | 'pending' | 'unsubscribed' | 'bounced' | 'complained'
>();
// The screen's page of subscribers (the shared list answer, core/schemas/admin-list.ts) and its counts.
expectTypeOf<InferResponseType<typeof api.admin.subscribers.search.$get, 200>['items'][number]>().toEqualTypeOf<
  InferResponseType<typeof api.admin.subscribers.$get, 200>[number]
>();
expectTypeOf<InferResponseType<typeof api.admin.subscribers.search.$get, 200>>().toMatchObjectType<{ total: number; page: number; pageSize: number }>();
expectTypeOf<InferResponseType<typeof api.admin.subscribers.counts.$get, 200>>().toEqualTypeOf<{ total: number; active: number; recent: number }>();
expectTypeOf<InferRequestType<(typeof api.admin.subscribers)[':id']['$delete']>>().toEqualTypeOf<{ param: { id: string } }>();
expectTypeOf<InferResponseType<(typeof api.admin.subscribers)[':id']['$delete'], 200>>().toEqualTypeOf<{ message: string }>();
expectTypeOf<InferResponseType<(typeof api.admin.subscribers)[':id']['$delete'], 404>>().toEqualTypeOf<{ message: string }>();
expectTypeOf<InferRequestType<(typeof api.admin.subscribers)[':id']['resend-confirmation']['$post']>>().toEqualTypeOf<{ param: { id: string } }>();
type Resend = (typeof api.admin.subscribers)[':id']['resend-confirmation']['$post'];
expectTypeOf<InferResponseType<Resend, 200>>().toEqualTypeOf<{ message: string }>();
expectTypeOf<InferResponseType<Resend, 404>>().toEqualTypeOf<{ message: string }>();
expectTypeOf<InferResponseType<Resend, 409>>().toEqualTypeOf<{ message: string }>();
expectTypeOf<InferResponseType<Resend, 429>>().toEqualTypeOf<{ message: string }>();
expectTypeOf<InferResponseType<(typeof api.admin)['sent-newsletters']['$get'], 200>[number]>().toMatchObjectType<{
  id: number;
  subject: string;
  content: string;
  sentAt: string;
  recipientCount: number;
  totalRecipients: number;
  failedCount: number;
}>();
expectTypeOf<InferResponseType<(typeof api.admin)['sent-newsletters']['$get'], 200>[number]['status']>().toExtend<'sending' | 'sent'>();
expectTypeOf<InferResponseType<(typeof api.admin)['sent-newsletters']['$get'], 200>[number]['status']>().not.toBeNever();

expectTypeOf<InferRequestType<(typeof api.admin)['send-newsletter']['$post']>['json']>().toEqualTypeOf<{ subject: string; content: string }>();
expectTypeOf<InferResponseType<(typeof api.admin)['send-newsletter']['$post'], 200>>().toMatchObjectType<{
  message: string;
  newsletterId: number;
  recipientCount: number;
  totalRecipients: number;
}>();
expectTypeOf<InferResponseType<typeof api.admin.newsletter.send.$post, 200>>().toMatchObjectType<{ sentCount: number; message: string }>();

expectTypeOf<InferResponseType<typeof api.admin.emails.$get, 200>[number]>().toMatchObjectType<{
  id: number;
  to: string;
  subject: string;
  kind: string;
  transport: string;
  error: string | null;
  providerId: string | null;
  deliveryStatus: string | null;
  deliveryDetail: string | null;
  deliveryUpdatedAt: string | null;
  createdAt: string;
}>();
expectTypeOf<InferResponseType<(typeof api.admin.email)['test-auth']['$post'], 200>['results'][number]>().toExtend<{
  provider: string;
  success: boolean;
}>();
expectTypeOf<InferResponseType<(typeof api.admin.email)['test-auth']['$post'], 200>['results'][number]>().not.toBeNever();
expectTypeOf<InferRequestType<(typeof api.admin.email)['test-send']['$post']>['json']>().toEqualTypeOf<{ testEmail: string }>();
expectTypeOf<InferResponseType<(typeof api.admin.email)['test-send']['$post'], 200>>().toExtend<{ success: boolean; message: string }>();
expectTypeOf<InferResponseType<(typeof api.admin.email)['test-send']['$post'], 200>>().not.toBeNever();
// Delivery events (MailChannels webhooks): enrollment status and "Enable delivery events".
expectTypeOf<InferResponseType<(typeof api.admin)['delivery-events']['$get'], 200>>().toExtend<{
  configured: boolean;
  accountIdSet: boolean;
  enrolled: boolean;
  endpoint: string;
  message: string;
}>();
expectTypeOf<InferResponseType<(typeof api.admin)['delivery-events']['$get'], 200>>().not.toBeNever();
expectTypeOf<InferResponseType<(typeof api.admin)['delivery-events']['$get'], 502>>().toEqualTypeOf<{ message: string }>();
expectTypeOf<InferResponseType<(typeof api.admin)['delivery-events']['enroll']['$post'], 200>>().toEqualTypeOf<{
  enrolled: true;
  endpoint: string;
  message: string;
}>();
expectTypeOf<InferResponseType<(typeof api.admin)['delivery-events']['enroll']['$post'], 400>>().toEqualTypeOf<{ message: string }>();
expectTypeOf<InferResponseType<(typeof api.admin)['delivery-events']['enroll']['$post'], 502>>().toEqualTypeOf<{ message: string }>();

// The public archive dates an issue by the firm's day (sentOn, YYYY-MM-DD) as well as the instant.
expectTypeOf<InferResponseType<typeof api.newsletters.$get, 200>[number]>().toEqualTypeOf<{ id: number; subject: string; sentAt: string; sentOn: string }>();
expectTypeOf<InferResponseType<(typeof api.newsletters)[':id']['$get'], 200>>().toEqualTypeOf<{ id: number; subject: string; sentAt: string; sentOn: string; html: string }>();
