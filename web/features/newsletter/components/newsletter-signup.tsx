import { type FormEvent, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { FieldError } from '../../../components/ui/input';
import { toast } from '../../../components/ui/use-toast';
import { trackFormSubmission } from '../../../lib/analytics';

const footerField =
  'block h-10 w-full rounded-md border border-white/20 bg-white/10 px-3 text-sm text-white placeholder:text-slate-300 focus:border-white focus:outline-none focus:ring-2 focus:ring-white/40 aria-[invalid=true]:border-red-300';

/**
 * The footer sign-up (docs/product.md §5.1: displayed; double opt-in). It sits in the shared frame
 * of every page, so it carries no form library: the shared zod schema (the API's own, with its
 * message 'Please enter a valid email address') and the typed API client (web/lib/api.ts) load
 * when the visitor submits.
 */
export function NewsletterSignup() {
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setPending(true);
    try {
      const [{ newsletterSubscribeSchema }, { api, okJson, errorMessage }] = await Promise.all([
        // zod-jitless first: zod must be configured before the schema is built (no eval probe under our CSP).
        import('../../../lib/zod-jitless').then(() => import('../../../../worker/schemas/newsletter')),
        import('../../../lib/api'),
      ]);
      const parsed = newsletterSubscribeSchema.safeParse({ email, name });
      if (!parsed.success) {
        setError(parsed.error.issues[0]?.message ?? 'Please enter a valid email address');
        return;
      }
      setError(undefined);
      try {
        const { message } = await okJson(api.newsletter.subscribe.$post({ json: parsed.data }));
        trackFormSubmission('Newsletter Signup', 'success');
        toast({ title: 'Almost there!', description: message });
        setEmail('');
        setName('');
      } catch (err) {
        trackFormSubmission('Newsletter Signup', 'error');
        toast({ variant: 'destructive', title: 'Error', description: errorMessage(err, 'Failed to subscribe. Please try again.') });
      }
    } finally {
      setPending(false);
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate className="mt-6 space-y-2" aria-label="Newsletter sign-up">
      <h2 className="text-sm font-semibold uppercase tracking-wide text-white">Newsletter</h2>
      <p className="text-sm">Tax tips and deadlines, once a month. Unsubscribe at any time.</p>
      <label htmlFor="newsletter-email" className="sr-only">
        Email address
      </label>
      <input
        id="newsletter-email"
        name="email"
        type="email"
        autoComplete="email"
        placeholder="Your email"
        className={footerField}
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        {...(error ? { 'aria-invalid': true, 'aria-describedby': 'newsletter-email-error' } : {})}
      />
      <div className="[&_p]:text-red-200">
        <FieldError id="newsletter-email-error" message={error} />
      </div>
      <label htmlFor="newsletter-name" className="sr-only">
        Name (optional)
      </label>
      <input
        id="newsletter-name"
        name="name"
        type="text"
        autoComplete="name"
        placeholder="Your name (optional)"
        className={footerField}
        value={name}
        onChange={(e) => setName(e.target.value)}
      />
      <Button type="submit" variant="accent" className="w-full" disabled={pending}>
        {pending ? 'Subscribing...' : 'Subscribe'}
      </Button>
    </form>
  );
}
