import { Loader2, UserRound } from 'lucide-react';
import type { FormEvent } from 'react';
import { accountProfileSchema } from '#core/schemas/admin-accounts';
import { Button } from '../../../components/ui/button';
import { CardContent } from '../../../components/ui/card';
import { FieldError, FormField, Input } from '../../../components/ui/input';
import { toast } from '../../../components/ui/use-toast';
import { errorMessage } from '../../../lib/api';
import { useSchemaForm } from '../../../lib/use-schema-form';
import { useSaveOwnProfile, type SignedInSession } from '../api/session';
import { PanelCard } from './panel-card';
import { SignOutButton } from './sign-out-button';

/**
 * "Tell us who you are" (docs/product.md §6.8): what an account without a name or an e-mail sees
 * before any admin screen: the first owner, created from ADMIN_USERNAME with neither. Not
 * skippable (an invitation is signed with this name, a password-reset link reaches this address),
 * but one small card: two fields, the invitation's rules (core/schemas/admin-accounts.ts).
 */
export function AccountProfileStep({ session }: { session: SignedInSession }) {
  const save = useSaveOwnProfile();
  const form = useSchemaForm({
    id: 'account-profile',
    // The first owner's name is its username until it says otherwise: not offered as a name.
    initial: { name: session.name === session.username ? '' : session.name, email: session.email ?? '' },
    schema: accountProfileSchema,
    submit: async (data) => {
      await save.mutateAsync(data);
      toast({ title: 'Saved', description: `Welcome, ${data.name}.` });
    },
    onError: (error, fields) => {
      if (Object.keys(fields).length > 0) return;
      const message = errorMessage(error, 'Failed to save. Please try again.');
      form.setFailure(message);
      toast({ variant: 'destructive', title: 'Error', description: message });
    },
  });
  const { errors } = form;
  return (
    <section className="mx-auto max-w-xl space-y-6 px-4 py-10 [overflow-wrap:anywhere] sm:px-6" aria-labelledby="account-profile-title">
      <div>
        <h1 id="account-profile-title" className="text-3xl font-bold text-brand-800">
          Tell us who you are
        </h1>
        <p className="mt-1 text-slate-600">Signed in as {session.username}. Your name and e-mail address first, then the admin panel.</p>
      </div>
      <PanelCard
        id="account-profile-heading"
        title="Your name and e-mail"
        icon={UserRound}
        intro="Invitations you send are signed with your name, and a password-reset link reaches you at this address."
      >
        <CardContent>
          <form ref={form.ref} onSubmit={(e: FormEvent) => void form.handleSubmit(e)} noValidate className="space-y-4" aria-label="Your name and e-mail">
            <FormField id="account-profile-name" label="Name" error={errors.name} errorId={form.errorId('name')}>
              <Input id="account-profile-name" required autoComplete="name" {...form.field('name')} {...form.described('name')} />
            </FormField>
            <FormField id="account-profile-email" label="Email" error={errors.email} errorId={form.errorId('email')}>
              <Input
                id="account-profile-email"
                type="email"
                required
                autoComplete="email"
                {...form.field('email')}
                {...(errors.email || form.failure ? { 'aria-invalid': true, 'aria-describedby': [errors.email && form.errorId('email'), form.failure && 'account-profile-error'].filter(Boolean).join(' ') } : {})}
              />
            </FormField>
            <FieldError id="account-profile-error" message={form.failure} />
            <div className="flex flex-wrap gap-2">
              <Button type="submit" disabled={form.pending}>
                {form.pending && <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />}
                Save and continue
              </Button>
              <SignOutButton />
            </div>
          </form>
        </CardContent>
      </PanelCard>
    </section>
  );
}
