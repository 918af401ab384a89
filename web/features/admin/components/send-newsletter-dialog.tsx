import { FileText, FlaskConical, Loader2, Send } from 'lucide-react';
import { sendNewsletterSchema, testSendNewsletterSchema } from '#core/schemas/newsletter';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogActions } from '../../../components/ui/dialog';
import { FieldError, Input, Label, Textarea } from '../../../components/ui/input';
import { toast } from '../../../components/ui/use-toast';
import { textToRichText } from '#core/content/rich-text';
import { errorMessage } from '../../../lib/api';
import { useContent } from '../../../lib/content';
import { useSchemaForm } from '../../../lib/use-schema-form';
import { useNewsletterTemplate, useSendNewsletter, useSendTestNewsletter } from '../api/admin-api';

/** Used when the template endpoint cannot answer: a sample with the /schedule call to action, signed by the firm `firmName`. */
export const fallbackTemplate = (firmName: string) => ({
  subject: `Tax Tips and Updates from ${firmName}`,
  htmlContent: `<h1 style="color:#0f2a4a;">Your Monthly Tax &amp; Business Update</h1>
<p>Hello,</p>
<p>Here is what our clients should keep in mind this month:</p>
<ul>
  <li><strong>Quarterly estimates:</strong> check your next estimated tax payment date.</li>
  <li><strong>Records:</strong> keep receipts and mileage logs organised as you go.</li>
  <li><strong>Planning:</strong> a short review now can lower next year's bill.</li>
</ul>
<p>Questions about your situation? We are happy to help.</p>
<p style="text-align:center;margin:32px 0;">
  <a href="/schedule" style="background:#163f6c;color:#ffffff;padding:12px 24px;border-radius:6px;text-decoration:none;font-weight:bold;">Schedule a Free Consultation</a>
</p>
<p>Warm regards,<br>The ${textToRichText(firmName)} team</p>`,
});

/**
 * The Send Newsletter dialog (docs/product.md §6.3); 'Please fill in both subject and content'
 * (§9); toasts (§10).
 */
export function SendNewsletterDialog({ open, onOpenChange, activeCount }: { open: boolean; onOpenChange: (open: boolean) => void; activeCount: number }) {
  const template = useNewsletterTemplate();
  const fallback = fallbackTemplate(useContent().firm.name);
  const send = useSendNewsletter();
  const testSend = useSendTestNewsletter();
  // 'Please fill in both subject and content' and the other messages of the server's schema, in a toast.
  const refused = (_errors: unknown, first: string) => toast({ variant: 'destructive', title: 'Error', description: first });
  const issue = useSchemaForm({
    id: 'newsletter',
    initial: { subject: '', content: '' },
    schema: sendNewsletterSchema,
    // The content goes as written (the server sanitises it); the subject trimmed.
    submit: async ({ subject }, { content }) => {
      const data = await send.mutateAsync({ subject, content });
      toast({ title: 'Success', description: data.message });
      issue.reset();
      onOpenChange(false);
    },
    onInvalid: refused,
    onError: (error) => toast({ variant: 'destructive', title: 'Error', description: errorMessage(error, 'Failed to send newsletter') }),
  });
  /** This issue to one address, marked [TEST]; the dialog stays open for the real send. */
  const test = useSchemaForm({
    id: 'newsletter-test',
    initial: { to: '' },
    schema: testSendNewsletterSchema,
    toInput: ({ to }) => ({ ...issue.values, to }),
    submit: async ({ subject, to }) => {
      const data = await testSend.mutateAsync({ subject, content: issue.values.content, to });
      toast({ title: 'Test sent', description: data.message });
    },
    // Subject and content first: their message is a toast; only the address has an error line.
    onInvalid: (errors, first) => (errors.subject || errors.content) && refused(errors, first),
    onError: (error) => toast({ variant: 'destructive', title: 'Error', description: errorMessage(error, 'Failed to send the test') }),
  });

  function loadTemplate() {
    template.mutate(undefined, {
      onSuccess: (t) => issue.setValues((v) => ({ subject: v.subject || t.subject, content: t.htmlContent })),
      onError: () => issue.setValues((v) => ({ subject: v.subject || fallback.subject, content: fallback.htmlContent })),
    });
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Send Newsletter" description="Write a newsletter for every active subscriber." className="max-w-2xl">
      <form onSubmit={issue.handleSubmit} className="space-y-4" noValidate>
        <div>
          <Label htmlFor="newsletter-subject">Subject</Label>
          <Input id="newsletter-subject" maxLength={200} {...issue.field('subject')} />
        </div>
        <div>
          <div className="mb-1 flex items-center justify-between gap-2">
            <Label htmlFor="newsletter-content" className="mb-0">
              HTML Content
            </Label>
            <Button variant="outline" size="sm" onClick={loadTemplate} disabled={template.isPending}>
              {template.isPending ? <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" /> : <FileText className="h-4 w-4" aria-hidden="true" />}
              Load Template
            </Button>
          </div>
          <Textarea
            id="newsletter-content"
            rows={12}
            className="font-mono text-xs"
            {...issue.field('content')}
            aria-describedby="newsletter-content-hint"
          />
          <p id="newsletter-content-hint" className="mt-1 text-xs text-slate-600">
            The template automatically adds social links, contact info and an unsubscribe link.
          </p>
        </div>
        <div className="rounded-md border border-slate-200 bg-slate-50 p-3">
          <Label htmlFor="newsletter-test-address">Send a test to</Label>
          <div className="flex flex-col gap-2 sm:flex-row">
            <Input
              id="newsletter-test-address"
              type="email"
              autoComplete="email"
              placeholder="you@example.com"
              {...test.field('to')}
              {...(test.errors.to ? { 'aria-invalid': true, 'aria-describedby': 'newsletter-test-address-error' } : {})}
            />
            <Button variant="outline" onClick={() => void test.handleSubmit()} disabled={test.pending} className="shrink-0">
              {test.pending ? <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" /> : <FlaskConical className="h-4 w-4" aria-hidden="true" />}
              {test.pending ? 'Sending test...' : 'Send a test'}
            </Button>
          </div>
          <FieldError id="newsletter-test-address-error" message={test.errors.to} />
          <p className="mt-1 text-xs text-slate-600">This issue to this one address only, its subject marked [TEST]. No subscriber gets it and it is not recorded as sent.</p>
        </div>
        <DialogActions onCancel={() => onOpenChange(false)}>
          <Button type="submit" disabled={issue.pending}>
            {issue.pending ? <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" /> : <Send className="h-4 w-4" aria-hidden="true" />}
            {issue.pending ? 'Sending...' : `Send to ${activeCount} Subscribers`}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
