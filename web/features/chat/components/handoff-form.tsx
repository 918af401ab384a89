import { useEffect, useRef, useState, type FormEvent } from 'react';
import { CHAT_HANDOFF_NOTE_MAX_LENGTH, chatHandoffSchema } from '#core/schemas/chat';
import { Button } from '../../../components/ui/button';
import { FieldError, Input, Label, Textarea } from '../../../components/ui/input';
import { ApiError, errorMessage } from '../../../lib/api';
import { useTurnstile } from '../../../lib/turnstile';
import { requestHandoff } from '../api/request-handoff';

type Field = 'name' | 'email' | 'phone' | 'note';
/** In the form's order: the first invalid one gets the focus. */
const FIELDS: readonly Field[] = ['name', 'email', 'phone', 'note'];
type FieldErrors = Partial<Record<Field, string>>;

const HANDOFF_FAILED = 'We could not send your request. Please try again, or contact us directly.';

/** The server's field messages of a 400 answer (worker/middleware/validate.ts). */
function serverFieldErrors(error: unknown): FieldErrors {
  if (!(error instanceof ApiError) || error.status !== 400 || typeof error.body !== 'object' || error.body === null) return {};
  const fields = (error.body as { fields?: Record<string, string[]> }).fields ?? {};
  return Object.fromEntries(FIELDS.filter((f) => fields[f]?.[0]).map((f) => [f, fields[f][0]]));
}

/**
 * docs/product.md §4.2: "Talk to a person", inline in the chat panel. Name, e-mail, optional phone
 * and note, checked by the same schema as POST /api/chat/handoff; the conversation itself is taken
 * by the server from its records, never sent from here.
 */
export function HandoffForm({ sessionId, onSent, onCancel }: { sessionId: string; onSent: (confirmation: string) => void; onCancel: () => void }) {
  const formRef = useRef<HTMLFormElement>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState('');
  const [pending, setPending] = useState(false);
  const turnstile = useTurnstile();

  useEffect(() => {
    formRef.current?.querySelector<HTMLInputElement>('[name="name"]')?.focus();
  }, []);

  const focusFirst = (found: FieldErrors) => {
    const first = FIELDS.find((field) => found[field]);
    if (first) formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
  };

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    const data = new FormData(event.currentTarget);
    const values = Object.fromEntries(['name', 'email', 'phone', 'note', 'website'].map((f) => [f, String(data.get(f) ?? '')]));
    const parsed = chatHandoffSchema.safeParse({ ...values, sessionId });
    setFailure('');
    if (!parsed.success) {
      const found: FieldErrors = {};
      for (const issue of parsed.error.issues) found[String(issue.path[0]) as Field] ??= issue.message;
      setErrors(found);
      focusFirst(found);
      return;
    }
    setErrors({});
    setPending(true);
    try {
      onSent(await requestHandoff({ ...parsed.data, ...(await turnstile.tokenField()) }));
    } catch (error) {
      turnstile.reset();
      const found = serverFieldErrors(error);
      setErrors(found);
      focusFirst(found);
      setFailure(Object.keys(found).length ? '' : errorMessage(error, HANDOFF_FAILED));
      setPending(false);
    }
  }

  const described = (field: Field) => (errors[field] ? { 'aria-invalid': true, 'aria-describedby': `handoff-${field}-error` } : {});

  return (
    <form ref={formRef} onSubmit={onSubmit} onFocus={turnstile.start} onInput={turnstile.start} noValidate aria-labelledby="handoff-title" className="space-y-2.5 rounded-xl border border-brand-100 bg-brand-50/60 p-3 text-sm">
      <div>
        <h3 id="handoff-title" className="font-semibold text-brand-800">
          Talk to a person
        </h3>
        <p className="text-xs text-slate-600">Leave your details: our team receives this conversation and gets back to you.</p>
      </div>
      <div>
        <Label htmlFor="handoff-name">Name</Label>
        <Input id="handoff-name" name="name" autoComplete="name" {...described('name')} />
        <FieldError id="handoff-name-error" message={errors.name} />
      </div>
      <div>
        <Label htmlFor="handoff-email">Email</Label>
        <Input id="handoff-email" name="email" type="email" autoComplete="email" {...described('email')} />
        <FieldError id="handoff-email-error" message={errors.email} />
      </div>
      <div>
        <Label htmlFor="handoff-phone">Phone (Optional)</Label>
        <Input id="handoff-phone" name="phone" type="tel" autoComplete="tel" {...described('phone')} />
        <FieldError id="handoff-phone-error" message={errors.phone} />
      </div>
      <div>
        <Label htmlFor="handoff-note">Note (Optional)</Label>
        <Textarea id="handoff-note" name="note" rows={2} maxLength={CHAT_HANDOFF_NOTE_MAX_LENGTH} placeholder="Anything we should know?" {...described('note')} />
        <FieldError id="handoff-note-error" message={errors.note} />
      </div>
      {/* Honeypot: invisible to people and to assistive technology; bots fill it. */}
      <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
        <label htmlFor="handoff-website">Website</label>
        <input id="handoff-website" name="website" type="text" tabIndex={-1} autoComplete="off" />
      </div>
      {/* Cloudflare Turnstile, when configured: loads as the form opens (its first field takes the focus). */}
      <div ref={turnstile.ref} />
      {failure && (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-2 py-1.5 text-xs text-red-800">
          {failure}
        </p>
      )}
      <div className="flex gap-2 pt-1">
        <Button type="submit" size="sm" disabled={pending}>
          {pending ? 'Sending...' : 'Send to our team'}
        </Button>
        <Button type="button" size="sm" variant="outline" onClick={onCancel} disabled={pending}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
