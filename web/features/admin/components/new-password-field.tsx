import type { InputHTMLAttributes } from 'react';
import { FormField, Input } from '../../../components/ui/input';

/**
 * The password a person chooses on an e-mailed link's page (docs/product.md §6.8: the invitation's
 * and the password reset's; the same rules as every admin password): the field, the hint under it
 * (what the input is described by until there is an error, then the error) and the error. The
 * input's other attributes (useSchemaForm's `field` and `described`) come in `input`.
 */
export function NewPasswordField({ id, label, error, errorId, ...input }: { id: string; label: string; error?: string; errorId: string } & InputHTMLAttributes<HTMLInputElement>) {
  const hintId = `${id}-hint`;
  return (
    <FormField id={id} label={label} error={error} errorId={errorId}>
      <Input id={id} type="password" autoComplete="new-password" required {...input} aria-describedby={error ? errorId : hintId} />
      <p id={hintId} className="mt-1 text-xs text-slate-600">
        At least 12 characters; a phrase of unrelated words is easy to remember and hard to guess.
      </p>
    </FormField>
  );
}
