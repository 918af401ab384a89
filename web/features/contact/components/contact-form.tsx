import { useRef, useState, type FormEvent } from 'react';
import type { ContactInput } from '#core/schemas/contact';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardHeader } from '../../../components/ui/card';
import { FieldError, Input, Label, RequiredMark, Textarea } from '../../../components/ui/input';
import { toast } from '../../../components/ui/use-toast';
import { trackFormSubmission } from '../../../lib/analytics';
import { useTurnstile } from '../../../lib/turnstile';
import { contactErrorText, sendContactMessage } from '../api/send-contact-message';

type Field = keyof ContactInput;
/** In the form's order: the first invalid one gets the focus. */
const FIELDS: readonly Field[] = ['name', 'email', 'phone', 'message', 'website'];
type FieldErrors = Partial<Record<Field, string>>;
type Validate = (values: ContactInput) => { data?: ContactInput; errors: FieldErrors };

/** The shared zod schema of POST /api/contact, loaded with the first submit (see validate-contact.ts). */
async function loadValidator(): Promise<Validate> {
  const { contactSchema } = await import('../validate-contact');
  return (values) => {
    const parsed = contactSchema.safeParse(values);
    if (parsed.success) return { data: { ...parsed.data, phone: parsed.data.phone ?? '' }, errors: {} };
    const errors: FieldErrors = {};
    for (const issue of parsed.error.issues) errors[String(issue.path[0]) as Field] ??= issue.message;
    return { errors };
  };
}

const readForm = (form: HTMLFormElement): ContactInput => {
  const data = new FormData(form);
  return Object.fromEntries(FIELDS.map((field) => [field, String(data.get(field) ?? '')])) as ContactInput;
};

/**
 * docs/product.md §2: 'Send us a Message'. Validated by the same zod schema as POST /api/contact.
 * Plain uncontrolled inputs (no form library): checked on submit and, once submitted, again as the
 * visitor corrects a field; the form empties after a message is sent.
 */
export function ContactForm() {
  const formRef = useRef<HTMLFormElement>(null);
  const validator = useRef<Validate | null>(null);
  const submitted = useRef(false);
  const busy = useRef(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [pending, setPending] = useState(false);
  const turnstile = useTurnstile();

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // One submit at a time (the first one may still be loading the schema).
    if (busy.current) return;
    busy.current = true;
    const form = event.currentTarget;
    submitted.current = true;
    try {
      validator.current ??= await loadValidator();
    } catch (error) {
      busy.current = false;
      console.error('Contact form submission failed:', error);
      toast({ variant: 'destructive', title: 'Error', description: 'Failed to send message. Please try again.' });
      return;
    }
    const { data, errors: found } = validator.current(readForm(form));
    setErrors(found);
    if (!data) {
      busy.current = false;
      const first = FIELDS.find((field) => found[field]);
      if (first) form.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
      return;
    }
    setPending(true);
    try {
      await sendContactMessage({ ...data, ...(await turnstile.tokenField()) });
      console.log('Contact form submitted successfully');
      trackFormSubmission('Contact Form', 'success');
      toast({ title: 'Message Sent', description: "We'll get back to you as soon as possible." });
      formRef.current?.reset();
      submitted.current = false;
      setErrors({});
    } catch (error) {
      console.error('Contact form submission failed:', error);
      trackFormSubmission('Contact Form', 'error');
      toast({ variant: 'destructive', title: 'Error', description: await contactErrorText(error) });
    } finally {
      turnstile.reset();
      busy.current = false;
      setPending(false);
    }
  }

  // After a submit, each edit re-checks the whole form and updates that field's message.
  function onChange(event: FormEvent<HTMLFormElement>) {
    const field = (event.target as HTMLInputElement).name as Field;
    if (!submitted.current || !validator.current || !FIELDS.includes(field)) return;
    const message = validator.current(readForm(event.currentTarget)).errors[field];
    setErrors((current) => (current[field] === message ? current : { ...current, [field]: message }));
  }

  const described = (field: Field) => (errors[field] ? { 'aria-invalid': true, 'aria-describedby': `contact-${field}-error` } : {});

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
        <form ref={formRef} onSubmit={onSubmit} onChange={onChange} onFocus={turnstile.start} onInput={turnstile.start} noValidate className="space-y-4">
          <div>
            <Label htmlFor="contact-name">
              Name <RequiredMark />
            </Label>
            <Input id="contact-name" name="name" aria-required="true" autoComplete="name" placeholder="Your name" {...described('name')} />
            <FieldError id="contact-name-error" message={errors.name} />
          </div>
          <div>
            <Label htmlFor="contact-email">
              Email <RequiredMark />
            </Label>
            <Input id="contact-email" name="email" aria-required="true" type="email" autoComplete="email" placeholder="you@example.com" {...described('email')} />
            <FieldError id="contact-email-error" message={errors.email} />
          </div>
          <div>
            <Label htmlFor="contact-phone">Phone (Optional)</Label>
            <Input id="contact-phone" name="phone" type="tel" autoComplete="tel" placeholder="(555) 123-4567" {...described('phone')} />
            <FieldError id="contact-phone-error" message={errors.phone} />
          </div>
          <div>
            <Label htmlFor="contact-message">
              Message <RequiredMark />
            </Label>
            <Textarea id="contact-message" name="message" aria-required="true" rows={5} placeholder="How can we help you?" {...described('message')} />
            <FieldError id="contact-message-error" message={errors.message} />
          </div>
          {/* Honeypot: invisible to people and to assistive technology; bots fill it. */}
          <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
            <label htmlFor="contact-website">Website</label>
            <input id="contact-website" name="website" type="text" tabIndex={-1} autoComplete="off" />
          </div>
          {/* Cloudflare Turnstile, when configured: empty until the visitor starts filling the form. */}
          <div ref={turnstile.ref} />
          <Button type="submit" size="lg" className="w-full" disabled={pending}>
            {pending ? 'Sending...' : 'Send Message'}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
