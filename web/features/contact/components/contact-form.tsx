import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { contactSchema, type ContactInput, type ContactRequest } from '../../../../worker/schemas/contact';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardHeader } from '../../../components/ui/card';
import { FieldError, Input, Label, Textarea } from '../../../components/ui/input';
import { toast } from '../../../components/ui/use-toast';
import { trackFormSubmission } from '../../../lib/analytics';
import { errorMessage } from '../../../lib/query-client';
import { useSendContactMessage } from '../api/send-contact-message';

const EMPTY: ContactInput = { name: '', email: '', phone: '', message: '', website: '' };

/** SPEC 2/4/5/8: 'Send us a Message'. Validated by the same zod schema as POST /api/contact. */
export function ContactForm() {
  const send = useSendContactMessage();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<ContactInput, unknown, ContactRequest>({ resolver: zodResolver(contactSchema), defaultValues: EMPTY });

  async function onSubmit(values: ContactRequest) {
    try {
      await send.mutateAsync({ ...values, phone: values.phone ?? '' });
      console.log('Contact form submitted successfully');
      trackFormSubmission('Contact Form', 'success');
      toast({ title: 'Message Sent', description: "We'll get back to you as soon as possible." });
      reset(EMPTY);
    } catch (error) {
      console.error('Contact form submission failed:', error);
      trackFormSubmission('Contact Form', 'error');
      toast({ variant: 'destructive', title: 'Error', description: errorMessage(error, 'Failed to send message. Please try again.') });
    }
  }

  const described = (field: keyof ContactInput) => (errors[field] ? { 'aria-invalid': true, 'aria-describedby': `contact-${field}-error` } : {});

  return (
    <Card>
      <CardHeader>
        <h2 className="text-2xl font-semibold text-brand-800">Send us a Message</h2>
        <p className="text-sm text-slate-600">Tell us how we can help. We reply on business days.</p>
      </CardHeader>
      <CardContent>
        <form onSubmit={handleSubmit(onSubmit)} noValidate className="space-y-4">
          <div>
            <Label htmlFor="contact-name">Name</Label>
            <Input id="contact-name" autoComplete="name" placeholder="Your name" {...register('name')} {...described('name')} />
            <FieldError id="contact-name-error" message={errors.name?.message} />
          </div>
          <div>
            <Label htmlFor="contact-email">Email</Label>
            <Input id="contact-email" type="email" autoComplete="email" placeholder="you@example.com" {...register('email')} {...described('email')} />
            <FieldError id="contact-email-error" message={errors.email?.message} />
          </div>
          <div>
            <Label htmlFor="contact-phone">Phone (Optional)</Label>
            <Input id="contact-phone" type="tel" autoComplete="tel" placeholder="(555) 123-4567" {...register('phone')} {...described('phone')} />
            <FieldError id="contact-phone-error" message={errors.phone?.message} />
          </div>
          <div>
            <Label htmlFor="contact-message">Message</Label>
            <Textarea id="contact-message" rows={5} placeholder="How can we help you?" {...register('message')} {...described('message')} />
            <FieldError id="contact-message-error" message={errors.message?.message} />
          </div>
          {/* Honeypot: invisible to people and to assistive technology; bots fill it. */}
          <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
            <label htmlFor="contact-website">Website</label>
            <input id="contact-website" type="text" tabIndex={-1} autoComplete="off" {...register('website')} />
          </div>
          <Button type="submit" size="lg" className="w-full" disabled={send.isPending}>
            {send.isPending ? 'Sending...' : 'Send Message'}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
