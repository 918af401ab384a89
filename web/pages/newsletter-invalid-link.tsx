import { TriangleAlert } from 'lucide-react';
import { Link } from 'react-router';
import { NewsletterStatus } from '../features/newsletter/components/newsletter-status';
import { useContent } from '../lib/content';
import { usePageMeta } from '../lib/page-meta';

export default function NewsletterInvalidLinkPage() {
  const { firm } = useContent();
  usePageMeta({ title: 'Link Invalid or Expired', description: 'This newsletter link is invalid or has expired.' });
  return (
    <NewsletterStatus icon={<TriangleAlert className="h-16 w-16 text-amber-600" aria-hidden="true" />} title="This Link Is Invalid or Has Expired">
      <p>
        Confirmation links work for 7 days. Sign up again at the bottom of any page for a fresh link, or{' '}
        <Link to="/contact" className="font-semibold text-brand-700 underline underline-offset-4">
          contact us
        </Link>{' '}
        or call{' '}
        <a href={firm.contact.phoneHref} className="font-semibold text-brand-700 underline underline-offset-4">
          {firm.contact.phone}
        </a>{' '}
        and we will take care of it.
      </p>
    </NewsletterStatus>
  );
}
