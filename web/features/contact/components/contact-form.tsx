import type { ContactInput } from '#core/schemas/contact';
import { SubmitButton } from '../../../components/ui/button';
import { Card, CardContent, CardHeader } from '../../../components/ui/card';
import { FormField, Honeypot, Input, Textarea } from '../../../components/ui/input';
import { noticeProps, SensitiveNumberNotice } from '../../../components/ui/sensitive-number-notice';
import { toast } from '../../../components/ui/use-toast';
import { trackFormSubmission } from '../../../lib/analytics';
import { useTurnstile } from '../../../lib/turnstile';
import { useSchemaForm } from '../../../lib/use-schema-form';
import { contactErrorText, sendContactMessage } from '../api/send-contact-message';

const EMPTY: Required<Pick<ContactInput, 'name' | 'email' | 'phone' | 'message' | 'website'>> = { name: '', email: '', phone: '', message: '', website: '' };

/** The shared zod schema of POST /api/contact, loaded with the first submit (see validate-contact.ts). */
const loadSchema = () => import('../validate-contact').then((module) => module.contactSchema);

/**
 * docs/product.md §2: 'Send us a Message'. Validated by the same zod schema as POST /api/contact
 * (the form pattern of web/lib/use-schema-form.ts): checked on submit and, once submitted, again as
 * the visitor corrects a field; the form empties after a message is sent. A message that looks like
 * a Social Security or account number is met with a pointer to the client portal (`clientPortal`,
 * the content's address: an island's JSON prop) before it is sent.
 */
export function ContactForm({ clientPortal }: { clientPortal: string }) {
  const turnstile = useTurnstile();
  const form = useSchemaForm({
    id: 'contact',
    initial: EMPTY,
    schema: loadSchema,
    submit: async (data) => {
      try {
        await sendContactMessage({ ...data, phone: data.phone ?? '', ...(await turnstile.tokenField()) });
      } finally {
        turnstile.reset();
      }
      console.log('Contact form submitted successfully');
      trackFormSubmission('Contact Form', 'success');
      toast({ title: 'Message Sent', description: "We'll get back to you as soon as possible." });
      form.reset();
    },
    onLoadError: (error) => {
      console.error('Contact form submission failed:', error);
      toast({ variant: 'destructive', title: 'Error', description: 'Failed to send message. Please try again.' });
    },
    onError: async (error) => {
      console.error('Contact form submission failed:', error);
      trackFormSubmission('Contact Form', 'error');
      toast({ variant: 'destructive', title: 'Error', description: await contactErrorText(error) });
    },
  });
  const { errors, pending, field, described, values } = form;

  return (
    <Card>
      <CardHeader>
        <h2 className="text-2xl font-semibold text-brand-800">Send us a Message</h2>
        <p className="text-sm text-slate-600">Tell us how we can help. We reply on business days.</p>
        <p className="text-sm text-slate-600">
          <span aria-hidden="true" className="text-red-700">
            *
          </span>{' '}
          Required fields
        </p>
      </CardHeader>
      <CardContent>
        <form ref={form.ref} onSubmit={form.handleSubmit} onFocus={turnstile.start} onInput={turnstile.start} noValidate className="space-y-4">
          <FormField id="contact-name" label="Name" required error={errors.name}>
            <Input id="contact-name" {...field('name')} aria-required="true" autoComplete="name" placeholder="Your name" {...described('name')} />
          </FormField>
          <FormField id="contact-email" label="Email" required error={errors.email}>
            <Input id="contact-email" {...field('email')} aria-required="true" type="email" autoComplete="email" placeholder="you@example.com" {...described('email')} />
          </FormField>
          <FormField id="contact-phone" label="Phone (Optional)" error={errors.phone}>
            <Input id="contact-phone" {...field('phone')} type="tel" autoComplete="tel" placeholder="(555) 123-4567" {...described('phone')} />
          </FormField>
          <FormField id="contact-message" label="Message" required error={errors.message}>
            <Textarea id="contact-message" {...field('message')} aria-required="true" rows={5} placeholder="How can we help you?" {...noticeProps('contact-message-notice', values.message, described('message'))} />
            <SensitiveNumberNotice id="contact-message-notice" text={values.message} portal={clientPortal} className="text-sm" />
          </FormField>
          <Honeypot id="contact-website" {...field('website')} />
          {/* Cloudflare Turnstile, when configured: empty until the visitor starts filling the form. */}
          <div ref={turnstile.ref} />
          <SubmitButton size="lg" className="w-full" pending={pending} busy="Sending...">
            Send Message
          </SubmitButton>
        </form>
      </CardContent>
    </Card>
  );
}
