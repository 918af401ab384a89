import {
  useEmailLog,
  useInboxPage,
  useEndSessionOn401,
  useNewsletterStats,
  useRateLimitStats,
  useSentNewsletters,
} from '../features/admin/api/admin-api';
import { AdminSubPageHeading, SignedInOnly } from '../features/admin/components/admin-page-parts';
import { AppointmentsPanel } from '../features/admin/components/appointments-panel';
import { ContactInbox, useInboxSearch } from '../features/admin/components/contact-inbox';
import { DeliveryEventsPanel, EmailAuthPanel } from '../features/admin/components/email-auth-panel';
import { EmailLogPanel } from '../features/admin/components/email-log-panel';
import { NewsletterPanel } from '../features/admin/components/newsletter-panel';
import { SchedulerPanel } from '../features/admin/components/scheduler-panel';
import { SendingProgress } from '../features/admin/components/sending-progress';
import { TurnstileWarning } from '../features/admin/components/turnstile-warning';
import { TwoFactorPanel } from '../features/admin/components/two-factor-panel';
import { NewsletterBadges, SubmissionBadges } from '../features/admin/components/stats-badges';
import { usePageMeta } from '../lib/page-meta';

/** /admin: the login card when signed out, the admin panel when signed in (docs/product.md §6). */
export default function AdminPage() {
  usePageMeta({ title: 'Admin Panel', description: 'Administration' });
  return <SignedInOnly>{() => <AdminPanel />}</SignedInOnly>;
}

/** Mounted only while signed in, so every read (and every poll) runs only then (docs/product.md §6.2). */
function AdminPanel() {
  // The inbox's page (the same read as the inbox's own): its figure `all` is the badge's total.
  const messages = useInboxPage(useInboxSearch().query, true);
  const rateLimit = useRateLimitStats(true);
  const newsletterStats = useNewsletterStats(true);
  const emails = useEmailLog(true);
  const sent = useSentNewsletters(true);
  useEndSessionOn401(messages, rateLimit, newsletterStats, emails, sent);
  const sending = sent.data?.filter((n) => n.status === 'sending') ?? [];

  return (
    <section className="mx-auto max-w-7xl space-y-8 px-4 py-10 [overflow-wrap:anywhere] sm:px-6 lg:px-8">
      {/* The title, then the back-office navigation with SPEC.md's Logout (admin-nav.tsx). */}
      <AdminSubPageHeading title="Admin Panel" signOut="logout" />

      <TurnstileWarning />

      <div className="space-y-3">
        <SubmissionBadges totalMessages={messages.data?.all} stats={rateLimit.data} />
        <NewsletterBadges stats={newsletterStats.data} />
      </div>

      {sending.length > 0 && (
        <div className="space-y-2" aria-label="Newsletters being sent">
          {sending.map((n) => (
            <SendingProgress key={n.id} newsletter={n} />
          ))}
        </div>
      )}

      {/* The panel's original blocks in their documented order (docs/product.md §6.2), then the ones added since. */}
      <SchedulerPanel enabled />
      <NewsletterPanel activeSubscribers={newsletterStats.data?.activeSubscribers} />
      <EmailAuthPanel />

      <div className="grid grid-cols-1 gap-8 lg:grid-cols-5">
        <div className="lg:col-span-3">
          <ContactInbox />
        </div>
        <div className="lg:col-span-2">
          <AppointmentsPanel />
        </div>
      </div>

      <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-2">
        <DeliveryEventsPanel />
        <TwoFactorPanel />
      </div>

      <EmailLogPanel emails={emails.data} isPending={emails.isPending} error={emails.error} />
    </section>
  );
}
