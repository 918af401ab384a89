import { MailCheck } from 'lucide-react';
import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Button } from '../components/ui/button';
import { toast } from '../components/ui/use-toast';
import { useContent } from '../lib/content';
import { useConfirmSubscription } from '../features/newsletter/api/newsletter-api';
import { NewsletterStatus } from '../features/newsletter/components/newsletter-status';
import { ApiError, errorMessage } from '../lib/api';
import { linkToken } from '../lib/link-token';
import { usePageMeta } from '../lib/page-meta';

/**
 * The link in the confirmation e-mail. Opening it changes nothing (mail scanners follow links and
 * would otherwise subscribe people who never clicked); the button confirms.
 */
export default function NewsletterConfirmPage() {
  const { firm } = useContent();
  usePageMeta({ title: 'Confirm Subscription', description: `Confirm your subscription to the ${firm.name} newsletter.` });
  const [params] = useSearchParams();
  const token = linkToken(params);
  const navigate = useNavigate();
  const confirmation = useConfirmSubscription();

  useEffect(() => {
    if (!token) navigate('/newsletter/invalid-link', { replace: true });
  }, [token, navigate]);

  async function confirm() {
    try {
      await confirmation.mutateAsync(token);
      navigate('/newsletter/confirmed', { replace: true });
    } catch (error) {
      if (error instanceof ApiError && error.status === 400) navigate('/newsletter/invalid-link', { replace: true });
      else toast({ variant: 'destructive', title: 'Error', description: errorMessage(error, 'Failed to confirm. Please try again.') });
    }
  }

  return (
    <NewsletterStatus
      icon={<MailCheck className="h-16 w-16 text-brand-700" aria-hidden="true" />}
      title="Confirm Your Subscription"
      actions={
        <Button size="lg" className="font-semibold" onClick={confirm} disabled={!token || confirmation.isPending}>
          {confirmation.isPending ? 'Confirming...' : 'Confirm subscription'}
        </Button>
      }
    >
      <p>Press the button to receive the {firm.name} newsletter: tax tips and deadlines, once a month.</p>
    </NewsletterStatus>
  );
}
