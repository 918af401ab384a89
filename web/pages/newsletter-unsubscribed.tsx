import { MailX } from 'lucide-react';
import { NewsletterStatus } from '../features/newsletter/components/newsletter-status';
import { useContent } from '../lib/content';
import { usePageMeta } from '../lib/page-meta';

export default function NewsletterUnsubscribedPage() {
  const { firm } = useContent();
  usePageMeta({ title: 'Unsubscribed', description: `You have been unsubscribed from the ${firm.name} newsletter.` });
  return (
    <NewsletterStatus icon={<MailX className="h-16 w-16 text-brand-700" aria-hidden="true" />} title="You Have Been Unsubscribed">
      <p>You will not receive the {firm.name} newsletter any more. Changed your mind? Sign up again at the bottom of any page.</p>
    </NewsletterStatus>
  );
}
