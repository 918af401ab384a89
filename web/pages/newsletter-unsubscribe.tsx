import { MailMinus } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Button } from '../components/ui/button';
import { toast } from '../components/ui/use-toast';
import { useContent } from '../lib/content';
import { checkUnsubscribeLink, useUnsubscribe } from '../features/newsletter/api/newsletter-api';
import { NewsletterStatus } from '../features/newsletter/components/newsletter-status';
import { errorMessage } from '../lib/api';
import { linkToken } from '../lib/link-token';
import { usePageMeta } from '../lib/page-meta';

/**
 * The unsubscribe link from a newsletter. Opening it changes nothing (mail scanners follow links);
 * the button does the unsubscribing.
 */
export default function NewsletterUnsubscribePage() {
  const { firm } = useContent();
  usePageMeta({ title: 'Unsubscribe', description: `Unsubscribe from the ${firm.name} newsletter.` });
  const [params] = useSearchParams();
  const token = linkToken(params);
  const navigate = useNavigate();
  const unsubscribe = useUnsubscribe();
  const [link, setLink] = useState<{ checked: boolean; email?: string }>({ checked: false });

  useEffect(() => {
    let current = true;
    if (!token) {
      navigate('/newsletter/invalid-link', { replace: true });
      return;
    }
    void checkUnsubscribeLink(token).then((result) => {
      if (!current) return;
      if (!result.valid) navigate('/newsletter/invalid-link', { replace: true });
      else setLink({ checked: true, email: result.email });
    });
    return () => {
      current = false;
    };
  }, [token, navigate]);

  async function confirm() {
    try {
      await unsubscribe.mutateAsync(token);
      navigate('/newsletter/unsubscribed');
    } catch (error) {
      toast({ variant: 'destructive', title: 'Error', description: errorMessage(error, 'Failed to unsubscribe. Please try again.') });
    }
  }

  return (
    <NewsletterStatus
      icon={<MailMinus className="h-16 w-16 text-brand-700" aria-hidden="true" />}
      title="Unsubscribe from Our Newsletter?"
      actions={
        <Button size="lg" className="font-semibold" onClick={confirm} disabled={!link.checked || unsubscribe.isPending}>
          {unsubscribe.isPending ? 'Unsubscribing...' : 'Unsubscribe'}
        </Button>
      }
    >
      <p>
        {link.checked && link.email ? (
          <>
            Press the button to stop the {firm.name} newsletter to <strong>{link.email}</strong>.
          </>
        ) : (
          <>Checking your link...</>
        )}
      </p>
    </NewsletterStatus>
  );
}
