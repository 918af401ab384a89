import { useRef, useState, type ChangeEvent, type FormEvent } from 'react';
// Type-only: the schema (and zod with it) comes from the form, possibly loaded on the first submit.
import type * as z from 'zod/v4';

/** A form's messages, one per field: the first the schema (or the server) gives for it. */
export type FieldErrors<V> = Partial<Record<keyof V & string, string>>;

export interface SchemaFormOptions<V extends object, S extends z.ZodType> {
  /** The empty form. */
  initial: V;
  /**
   * The shared schema (core/schemas), or a loader for it: a public form loads zod and its schema
   * with the visitor's first submit, not with the page (web/features/contact/validate-contact.ts).
   */
  schema: S | (() => Promise<S>);
  /** The ids of the error lines are `${id}-${field}-error`. */
  id: string;
  /** What the schema checks, when it is not the values themselves (e.g. a Date sent as text). */
  toInput?: (values: V) => unknown;
  /** Sends the checked data; a rejection goes to onError (a 400's field messages first go under their fields). */
  submit: (data: z.output<S>, values: V) => Promise<unknown>;
  /**
   * The schema refused the values: their messages are already under the fields; `first` is the
   * first one. `errors` also has the messages of what `toInput` adds.
   */
  onInvalid?: (errors: Partial<Record<string, string>>, first: string) => void;
  /** `submit` failed; `fields` are the server's field messages now shown (empty for any other failure). */
  onError?: (error: unknown, fields: FieldErrors<V>) => unknown;
  /** The schema could not be loaded (offline); onError when not given. */
  onLoadError?: (error: unknown) => void;
}

const firstMessages = <V>(issues: readonly { path: readonly PropertyKey[]; message: string }[]) => {
  const errors: Record<string, string> = {};
  for (const issue of issues) errors[String(issue.path[0])] ??= issue.message;
  return errors as FieldErrors<V>;
};

/**
 * The field messages of a 400 answer (worker/middleware/validate.ts: `{ fields: { name: [...] } }`)
 * for the fields this form has. Read from the error's shape, not `instanceof ApiError`, so that a
 * public form does not load the typed client (web/lib/api.ts) with its page.
 */
function serverFieldErrors<V>(error: unknown, fields: readonly string[]): FieldErrors<V> {
  const { status, body } = (error ?? {}) as { status?: unknown; body?: { fields?: Record<string, string[] | undefined> } | null };
  const sent = status === 400 && typeof body === 'object' && body !== null ? (body.fields ?? {}) : {};
  return Object.fromEntries(fields.filter((f) => sent[f]?.[0]).map((f) => [f, sent[f]![0]])) as FieldErrors<V>;
}

/**
 * One pattern for every form (docs/architecture.md, "Forms"): the values, each field's message
 * from the shared zod schema, the pending state and the submit. On submit the values are checked
 * (the schema loaded first when it is lazy); the fields' messages show and the first invalid field
 * takes the focus, or `submit` runs with the parsed data while `pending` is true.
 * Once submitted, each edit re-checks its own field. A 400 answer's field messages go under their
 * fields. One submit at a time.
 *
 * @example
 * const form = useSchemaForm({ id: 'handoff', initial: { name: '', email: '' }, schema: chatHandoffSchema, submit: send });
 * <form ref={form.ref} onSubmit={form.handleSubmit} noValidate>
 *   <Input id="handoff-name" {...form.field('name')} {...form.described('name')} />
 *   <FieldError id={form.errorId('name')} message={form.errors.name} />
 */
export function useSchemaForm<V extends object, S extends z.ZodType>(options: SchemaFormOptions<V, S>) {
  const latest = useRef(options);
  latest.current = options;
  const ref = useRef<HTMLFormElement>(null);
  const [values, setValuesState] = useState<V>(options.initial);
  const current = useRef(values);
  const [errors, setErrors] = useState<FieldErrors<V>>({});
  const [pending, setPending] = useState(false);
  // A message for the whole form (e.g. a 429), set by the form's onError; each submit clears it.
  const [failure, setFailure] = useState<string | undefined>();
  const schema = useRef<S | null>(typeof options.schema === 'function' ? null : options.schema);
  const busy = useRef(false);
  const submitted = useRef(false);
  // The first field with a message (in the form's order) takes the focus: a form opts in with `ref`.
  function focusFirst(errors: FieldErrors<V>) {
    const names = Object.keys(errors);
    // A selector list matches in document order, whatever the order of the names.
    if (names.length) ref.current?.querySelector<HTMLElement>(names.map((name) => `[name="${name}"]`).join())?.focus();
  }

  const check = (values: V) => schema.current!.safeParse((latest.current.toInput ?? ((v: V) => v))(values));

  function setValues(update: V | ((values: V) => V)) {
    current.current = typeof update === 'function' ? update(current.current) : update;
    setValuesState(current.current);
  }

  /** Sets one field; after a submit, re-checks it (the whole form, that field's message kept). */
  function setValue<K extends keyof V & string>(name: K, value: V[K]) {
    setValues((v) => ({ ...v, [name]: value }));
    if (!submitted.current || !schema.current) return;
    const result = check(current.current);
    const message = result.success ? undefined : firstMessages<V>(result.error.issues)[name];
    setErrors((shown) => (shown[name] === message ? shown : { ...shown, [name]: message }));
  }

  /** Back to the empty form, without messages. */
  function reset() {
    submitted.current = false;
    setValues(latest.current.initial);
    setErrors({});
  }

  async function handleSubmit(event?: FormEvent) {
    event?.preventDefault();
    if (busy.current) return;
    busy.current = true;
    setFailure(undefined);
    const { schema: given, submit, onInvalid, onError, onLoadError } = latest.current;
    try {
      submitted.current = true;
      try {
        schema.current ??= await (given as () => Promise<S>)();
      } catch (error) {
        (onLoadError ?? onError)?.(error, {});
        return;
      }
      const values = current.current;
      const result = check(values);
      if (!result.success) {
        const found = firstMessages<V>(result.error.issues);
        setErrors(found);
        focusFirst(found);
        onInvalid?.(found, result.error.issues[0].message);
        return;
      }
      setErrors({});
      setPending(true);
      try {
        await submit(result.data, values);
      } catch (error) {
        const fields = serverFieldErrors<V>(error, Object.keys(values));
        setErrors(fields);
        focusFirst(fields);
        await onError?.(error, fields);
      } finally {
        setPending(false);
      }
    } finally {
      busy.current = false;
    }
  }

  return {
    ref,
    values,
    setValue,
    setValues,
    reset,
    errors,
    pending,
    failure,
    setFailure,
    handleSubmit,
    errorId: (name: keyof V & string) => `${options.id}-${name}-error`,
    /** A text field's name, value and change handler. */
    field: <K extends keyof V & string>(name: K) => ({
      name,
      value: values[name] as string,
      onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) => setValue(name, event.target.value as V[K]),
    }),
    /** A field's ARIA ties to its message, while it has one. */
    described: (name: keyof V & string) => (errors[name] ? { 'aria-invalid': true, 'aria-describedby': `${options.id}-${name}-error` } : {}),
  };
}
