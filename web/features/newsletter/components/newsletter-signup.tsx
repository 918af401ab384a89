import { Fragment } from 'react';
import { Button } from '../../../components/ui/button';
import { FieldError } from '../../../components/ui/input';
import { toast } from '../../../components/ui/use-toast';
import { trackFormSubmission } from '../../../lib/analytics';
import { useTurnstile } from '../../../lib/turnstile';
import { useSchemaForm } from '../../../lib/use-schema-form';

const footerField =
  'block h-10 w-full rounded-md border border-white/20 bg-white/10 px-3 text-sm text-white placeholder:text-slate-300 focus:border-white focus:outline-none focus:ring-2 focus:ring-white/40 aria-[invalid=true]:border-red-300';

/** The shared schema and, meanwhile, the typed API client (web/lib/api.ts) that sends the address. */
const loadSchema = () =>
  Promise.all([
    // zod-jitless first: zod must be configured before the schema is built (no eval probe under our CSP).
    import('../../../lib/zod-jitless').then(() => import('#core/schemas/newsletter')),
    import('../../../lib/api'),
  ]).then(([{ newsletterSubscribeSchema }]) => newsletterSubscribeSchema);

/**
 * The footer sign-up (docs/product.md §5.1: displayed; double opt-in). It sits in the shared frame
 * of every page, so it carries no form library: the shared zod schema (the API's own, with its
 * message 'Please enter a valid email address') and the typed API client (web/lib/api.ts) load
 * when the visitor submits (the form pattern of web/lib/use-schema-form.ts).
 */
export function NewsletterSignup() {
  const turnstile = useTurnstile();
  const form = useSchemaForm({
    id: 'newsletter',
    initial: { email: '', name: '' },
    schema: loadSchema,
    submit: async (data) => {
      const { api, okJson } = await import('../../../lib/api');
      try {
        const { message } = await okJson(api.newsletter.subscribe.$post({ json: { ...data, ...(await turnstile.tokenField()) } }));
        trackFormSubmission('Newsletter Signup', 'success');
        toast({ title: 'Almost there!', description: message });
        form.reset();
      } finally {
        turnstile.reset();
      }
    },
    onError: async (error) => {
      const { errorMessage } = await import('../../../lib/api');
      trackFormSubmission('Newsletter Signup', 'error');
      toast({ variant: 'destructive', title: 'Error', description: errorMessage(error, 'Failed to subscribe. Please try again.') });
    },
  });
  // The address is the one field with an error line: it shows the first message of either.
  const error = form.errors.email ?? form.errors.name;

  // The two inputs, each named as its autocomplete token (the id is newsletter-<name>); the address is
  // the one validated here, so only it has an error line.
  const fields = [
    { name: 'email', type: 'email', label: 'Email address', placeholder: 'Your email', error },
    { name: 'name', type: 'text', label: 'Name (optional)', placeholder: 'Your name (optional)' },
  ] as const;

  return (
    <form ref={form.ref} onSubmit={form.handleSubmit} onFocus={turnstile.start} onInput={turnstile.start} noValidate className="mt-6 space-y-2" aria-label="Newsletter sign-up">
      <h2 className="text-sm font-semibold uppercase tracking-wide text-white">Newsletter</h2>
      <p className="text-sm">Tax tips and deadlines, once a month. Unsubscribe at any time.</p>
      {fields.map((field) => {
        const id = `newsletter-${field.name}`;
        return (
          <Fragment key={field.name}>
            <label htmlFor={id} className="sr-only">
              {field.label}
            </label>
            <input
              id={id}
              type={field.type}
              autoComplete={field.name}
              placeholder={field.placeholder}
              className={footerField}
              {...form.field(field.name)}
              {...('error' in field ? { 'aria-required': true } : {})}
              {...('error' in field && field.error ? { 'aria-invalid': true, 'aria-describedby': `${id}-error` } : {})}
            />
            {'error' in field && (
              <div className="[&_p]:text-red-200">
                <FieldError id={`${id}-error`} message={field.error} />
              </div>
            )}
          </Fragment>
        );
      })}
      {/* Cloudflare Turnstile, when configured: empty until the visitor starts filling the form. */}
      <div ref={turnstile.ref} />
      <Button type="submit" variant="accent" className="w-full" disabled={form.pending}>
        {form.pending ? 'Subscribing...' : 'Subscribe'}
      </Button>
    </form>
  );
}
