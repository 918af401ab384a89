import { useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Button } from '../components/ui/button';
import { Card, CardContent, CardHeader } from '../components/ui/card';
import { FieldError, Input, Label } from '../components/ui/input';
import { toast } from '../components/ui/use-toast';
import { acceptInvitationSchema } from '#core/schemas/admin-accounts';
import { useAcceptInvitation, useInvitation } from '../features/admin/api/users-api';
import { AdminLoginCard } from '../features/admin/components/admin-login-card';
import { AdminSpinner } from '../features/admin/components/admin-page-parts';
import { errorMessage } from '../lib/api';
import { usePageMeta } from '../lib/page-meta';
import { useSchemaForm } from '../lib/use-schema-form';

/**
 * /admin/accept-invitation?token=…: the link of an invitation e-mail (docs/product.md §6.8). The
 * invitee chooses a username and a password (the same rules as every admin password), then signs
 * in; two-factor sign-in is set up from the admin panel (or at once, when the owner requires it).
 */
export default function AcceptInvitationPage() {
  usePageMeta({ title: 'Accept Invitation', description: 'Create your back-office account' });
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token') ?? '';
  const invitation = useInvitation(token);
  const [accepted, setAccepted] = useState(false);
  const navigate = useNavigate();

  if (accepted) {
    return (
      <div>
        <p role="status" className="mx-auto mt-10 max-w-md px-4 text-center text-slate-700">
          Your account is ready. Sign in with your username and password.
        </p>
        <AdminLoginCard onSignedIn={() => navigate('/admin')} />
      </div>
    );
  }
  return (
    <div className="mx-auto flex min-h-[60vh] max-w-md items-center px-4 py-16 [overflow-wrap:anywhere]">
      <Card className="w-full">
        <CardHeader>
          <h1 className="text-2xl font-bold text-brand-800">Accept your invitation</h1>
          {invitation.data && (
            <p className="text-sm text-slate-600">
              Welcome, {invitation.data.name}. Choose the username and password you will sign in with as {invitation.data.role === 'owner' ? 'an owner' : 'a staff member'}.
            </p>
          )}
        </CardHeader>
        <CardContent>
          {token === '' ? (
            <p role="alert" className="text-sm text-red-800">
              This invitation link is incomplete. Open the link from the e-mail again.
            </p>
          ) : invitation.isPending ? (
            <AdminSpinner />
          ) : invitation.isError ? (
            <p role="alert" className="text-sm text-red-800">
              {errorMessage(invitation.error, 'This invitation link is not valid.')}
            </p>
          ) : (
            <AcceptForm token={token} suggestedUsername={invitation.data.email} onAccepted={() => setAccepted(true)} />
          )}
        </CardContent>
      </Card>
    </div>
  );
}

function AcceptForm({ token, suggestedUsername, onAccepted }: { token: string; suggestedUsername: string; onAccepted: () => void }) {
  const accept = useAcceptInvitation();
  const form = useSchemaForm({
    id: 'accept',
    initial: { token, username: suggestedUsername, password: '' },
    schema: acceptInvitationSchema,
    submit: async (data) => {
      await accept.mutateAsync(data);
      toast({ title: 'Account created', description: 'Sign in with your new username and password.' });
      onAccepted();
    },
    onError: (error, fields) => {
      if (Object.keys(fields).length === 0) toast({ variant: 'destructive', title: 'Error', description: errorMessage(error, 'Failed to create your account. Please try again.') });
    },
  });
  const { errors } = form;
  return (
    <form ref={form.ref} onSubmit={(e: FormEvent) => void form.handleSubmit(e)} noValidate className="space-y-4">
      <div>
        <Label htmlFor="accept-username">Username</Label>
        <Input id="accept-username" autoComplete="username" required {...form.field('username')} {...form.described('username')} />
        <FieldError id={form.errorId('username')} message={errors.username} />
      </div>
      <div>
        <Label htmlFor="accept-password">Password</Label>
        <Input id="accept-password" type="password" autoComplete="new-password" required {...form.field('password')} {...form.described('password')} aria-describedby={errors.password ? form.errorId('password') : 'accept-password-hint'} />
        <p id="accept-password-hint" className="mt-1 text-xs text-slate-600">
          At least 12 characters; a phrase of unrelated words is easy to remember and hard to guess.
        </p>
        <FieldError id={form.errorId('password')} message={errors.password} />
      </div>
      <Button type="submit" className="w-full" disabled={form.pending}>
        {form.pending ? 'Creating account...' : 'Create account'}
      </Button>
    </form>
  );
}
