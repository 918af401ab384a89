import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from '../components/ui/button';
import { toast } from '../components/ui/use-toast';
import { completePasswordResetSchema } from '#core/schemas/admin-accounts';
import { useCompletePasswordReset, usePasswordReset } from '../features/admin/api/users-api';
import { EmailLinkCard, EmailLinkDone } from '../features/admin/components/email-link-card';
import { NewPasswordField } from '../features/admin/components/new-password-field';
import { errorMessage } from '../lib/api';
import { usePageMeta } from '../lib/page-meta';
import { useSchemaForm } from '../lib/use-schema-form';

/**
 * /admin/reset-password?token=…: the link of a password-reset e-mail an owner sent
 * (docs/product.md §6.8). The person chooses a new password (the same rules as every admin
 * password); the link then stops working and the account is signed out everywhere.
 */
export default function ResetPasswordPage() {
  usePageMeta({ title: 'Choose a New Password', description: 'Set a new password for your back-office account' });
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token') ?? '';
  const reset = usePasswordReset(token);
  const [done, setDone] = useState(false);

  if (done) return <EmailLinkDone message="Your new password is set, and your account is signed out everywhere. Sign in with it now." />;
  return (
    <EmailLinkCard
      title="Choose a new password"
      intro={reset.data && `For ${reset.data.name || reset.data.username} (username ${reset.data.username}). The link works once.`}
      token={token}
      check={reset}
      incomplete="This password-reset link is incomplete. Open the link from the e-mail again."
      invalid="This password-reset link is not valid."
    >
      <ResetForm token={token} onDone={() => setDone(true)} />
    </EmailLinkCard>
  );
}

function ResetForm({ token, onDone }: { token: string; onDone: () => void }) {
  const complete = useCompletePasswordReset();
  const form = useSchemaForm({
    id: 'reset',
    initial: { token, password: '' },
    schema: completePasswordResetSchema,
    submit: async (data) => {
      await complete.mutateAsync(data);
      toast({ title: 'Password changed', description: 'Sign in with your new password.' });
      onDone();
    },
    onError: (error, fields) => {
      if (Object.keys(fields).length === 0) toast({ variant: 'destructive', title: 'Error', description: errorMessage(error, 'Failed to set your new password. Please try again.') });
    },
  });
  const { errors } = form;
  return (
    <form ref={form.ref} onSubmit={(e: FormEvent) => void form.handleSubmit(e)} noValidate className="space-y-4">
      <NewPasswordField id="reset-password" label="New password" error={errors.password} errorId={form.errorId('password')} {...form.field('password')} {...form.described('password')} />
      <Button type="submit" className="w-full" disabled={form.pending}>
        {form.pending ? 'Saving...' : 'Set new password'}
      </Button>
    </form>
  );
}
