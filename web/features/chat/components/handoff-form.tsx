import { useEffect } from 'react';
import { CHAT_HANDOFF_NOTE_MAX_LENGTH, chatHandoffSchema } from '#core/schemas/chat';
import { Button, SubmitButton } from '../../../components/ui/button';
import { FormField, Honeypot, Input, Textarea } from '../../../components/ui/input';
import { noticeProps, SensitiveNumberNotice } from '../../../components/ui/sensitive-number-notice';
import { errorMessage } from '../../../lib/api';
import { useTurnstile } from '../../../lib/turnstile';
import { useSchemaForm } from '../../../lib/use-schema-form';
import { requestHandoff } from '../api/request-handoff';

const HANDOFF_FAILED = 'We could not send your request. Please try again, or contact us directly.';

/**
 * docs/product.md §4.2: "Talk to a person", inline in the chat panel. Name, e-mail, optional phone
 * and note, checked by the same schema as POST /api/chat/handoff (the form pattern of
 * web/lib/use-schema-form.ts); the conversation itself is taken by the server from its records,
 * never sent from here. A note that looks like a Social Security or account number is met with a
 * pointer to the client portal before it is sent.
 */
export function HandoffForm({ sessionId, clientPortal, onSent, onCancel }: { sessionId: string; clientPortal: string; onSent: (confirmation: string) => void; onCancel: () => void }) {
  const turnstile = useTurnstile();
  const form = useSchemaForm({
    id: 'handoff',
    initial: { name: '', email: '', phone: '', note: '', website: '' },
    schema: chatHandoffSchema,
    toInput: (values) => ({ ...values, sessionId }),
    submit: async (data) => onSent(await requestHandoff({ ...data, ...(await turnstile.tokenField()) })),
    // The server's field messages (400) are under their fields; any other failure is said here.
    onError: (error, fields) => {
      turnstile.reset();
      if (!Object.keys(fields).length) form.setFailure(errorMessage(error, HANDOFF_FAILED));
    },
  });
  const { errors, failure, field, described, values, ref: formRef } = form;

  useEffect(() => {
    formRef.current?.querySelector<HTMLInputElement>('[name="name"]')?.focus();
  }, [formRef]);

  return (
    <form ref={form.ref} onSubmit={form.handleSubmit} onFocus={turnstile.start} onInput={turnstile.start} noValidate aria-labelledby="handoff-title" className="space-y-2.5 rounded-xl border border-brand-100 bg-brand-50/60 p-3 text-sm">
      <div>
        <h3 id="handoff-title" className="font-semibold text-brand-800">
          Talk to a person
        </h3>
        <p className="text-xs text-slate-600">Leave your details: our team receives this conversation and gets back to you.</p>
      </div>
      <FormField id="handoff-name" label="Name" error={errors.name}>
        <Input id="handoff-name" {...field('name')} autoComplete="name" {...described('name')} />
      </FormField>
      <FormField id="handoff-email" label="Email" error={errors.email}>
        <Input id="handoff-email" {...field('email')} type="email" autoComplete="email" {...described('email')} />
      </FormField>
      <FormField id="handoff-phone" label="Phone (Optional)" error={errors.phone}>
        <Input id="handoff-phone" {...field('phone')} type="tel" autoComplete="tel" {...described('phone')} />
      </FormField>
      <FormField id="handoff-note" label="Note (Optional)" error={errors.note}>
        <Textarea id="handoff-note" {...field('note')} rows={2} maxLength={CHAT_HANDOFF_NOTE_MAX_LENGTH} placeholder="Anything we should know?" {...noticeProps('handoff-note-notice', values.note, described('note'))} />
        <SensitiveNumberNotice id="handoff-note-notice" text={values.note} portal={clientPortal} className="text-xs" />
      </FormField>
      <Honeypot id="handoff-website" {...field('website')} />
      {/* Cloudflare Turnstile, when configured: loads as the form opens (its first field takes the focus). */}
      <div ref={turnstile.ref} />
      {failure && (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-2 py-1.5 text-xs text-red-800">
          {failure}
        </p>
      )}
      <div className="flex gap-2 pt-1">
        <SubmitButton size="sm" pending={form.pending} busy="Sending...">
          Send to our team
        </SubmitButton>
        <Button type="button" size="sm" variant="outline" onClick={onCancel} disabled={form.pending}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
