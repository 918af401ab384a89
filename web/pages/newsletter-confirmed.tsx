import { MailCheck } from 'lucide-react';
import { NewsletterStatus } from '../features/newsletter/components/newsletter-status';
import { useContent } from '../lib/content';
import { usePageMeta } from '../lib/page-meta';

/** Where the confirmation page's button leads once the subscription is active (newsletter-confirm.tsx). */
export default function NewsletterConfirmedPage() {
  const { firm } = useContent();
  usePageMeta({ title: 'Subscription Confirmed', description: `Your subscription to the ${firm.name} newsletter is confirmed.` });
  return (
    <NewsletterStatus icon={<MailCheck className="h-16 w-16 text-green-700" aria-hidden="true" />} title="Subscription Confirmed">
      <p>Thank you! You will receive the {firm.name} newsletter: tax tips and deadlines, once a month. Every issue has a link to unsubscribe.</p>
    </NewsletterStatus>
  );
}
