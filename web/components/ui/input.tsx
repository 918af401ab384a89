import type { InputHTMLAttributes, LabelHTMLAttributes, ReactNode, TextareaHTMLAttributes } from 'react';

// focus-within as well as focus: a date input's calendar button takes the focus inside the input,
// and shows no ring of its own (WCAG 2.4.7).
const field =
  'block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 placeholder:text-slate-500 focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/30 focus-within:border-brand-600 focus-within:ring-2 focus-within:ring-brand-600/30 disabled:opacity-60 aria-[invalid=true]:border-red-600';

export function Input({ className = '', ...props }: InputHTMLAttributes<HTMLInputElement>) {
  return <input className={`${field} h-10 ${className}`} {...props} />;
}

export function Textarea({ className = '', ...props }: TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return <textarea className={`${field} ${className}`} {...props} />;
}

export function Label({ className = '', ...props }: LabelHTMLAttributes<HTMLLabelElement>) {
  // eslint-disable-next-line jsx-a11y/label-has-associated-control -- a primitive: each caller passes htmlFor
  return <label className={`mb-1 block text-sm font-medium text-slate-800 ${className}`} {...props} />;
}

/**
 * The visible required mark after a label's text: hidden from assistive technology, which hears
 * the field's own required state (aria-required) instead of "star". The form explains the mark in
 * a legend (docs/product.md "Accessibility").
 */
export function RequiredMark() {
  return (
    <span aria-hidden="true" data-required-mark="" className="ml-0.5 text-red-700">
      *
    </span>
  );
}

/** A field's validation message, tied to its input with aria-describedby. */
export function FieldError({ id, message }: { id: string; message?: string }) {
  if (!message) return null;
  return (
    <p id={id} role="alert" className="mt-1 text-sm text-red-700">
      {message}
    </p>
  );
}

/**
 * A form's field as the forms lay it out (the public ones and the back office's): the label (with the required mark), the control
 * (`children`, whose id is `id`) and the field's message under it. The message's id is
 * `${id}-error` unless `errorId` says otherwise; the control points at it with useSchemaForm's `described`.
 */
export function FormField({ id, label, required, error, errorId = `${id}-error`, children }: { id: string; label: string; required?: boolean; error?: string; errorId?: string; children: ReactNode }) {
  return (
    <div>
      <Label htmlFor={id}>
        {required ? (
          <>
            {`${label} `}
            <RequiredMark />
          </>
        ) : (
          label
        )}
      </Label>
      {children}
      <FieldError id={errorId} message={error} />
    </div>
  );
}

/**
 * The honeypot field (`website`): out of sight and hidden from assistive technology, so only a bot
 * fills it; the API then answers as it would a person and keeps nothing.
 */
export function Honeypot({ id, ...input }: { id: string } & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
      <label htmlFor={id}>Website</label>
      <input id={id} type="text" {...input} tabIndex={-1} autoComplete="off" />
    </div>
  );
}

/** A select's options whose value is their own text (the services, the free times, the audit actions). */
export function TextOptions({ values }: { values: readonly string[] }) {
  return values.map((value) => (
    <option key={value} value={value}>
      {value}
    </option>
  ));
}
