import { useState, type FormEvent, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from '../components/ui/button';
import { FieldError, FormField, Input, Label } from '../components/ui/input';
import { toast } from '../components/ui/use-toast';
import { acceptInvitationSchema } from '#core/schemas/admin-accounts';
import { useAcceptInvitation, useInvitation, useInvitationTwoFactor } from '../features/admin/api/users-api';
import { EmailLinkCard, EmailLinkDone } from '../features/admin/components/email-link-card';
import { NewPasswordField } from '../features/admin/components/new-password-field';
import { QrCode, RecoveryCodes } from '../features/admin/components/two-factor-panel';
import { errorMessage } from '../lib/api';
import { usePageMeta } from '../lib/page-meta';
import { useSchemaForm } from '../lib/use-schema-form';

/**
 * /admin/accept-invitation?token=…: the link of an invitation e-mail (docs/product.md §6.8). The
 * invitee chooses a username and a password (the same rules as every admin password) and, while
 * the owner requires two-factor sign-in, enrols an authenticator app here, proven by the link: the
 * account is born with its second factor (no later holder of the password can enrol theirs). Then
 * the recovery codes, once, and sign-in.
 */
export default function AcceptInvitationPage() {
  usePageMeta({ title: 'Accept Invitation', description: 'Create your back-office account' });
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token') ?? '';
  const invitation = useInvitation(token);
  const [accepted, setAccepted] = useState(false);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);

  if (recoveryCodes) {
    return (
      <div className="mx-auto max-w-md space-y-4 px-4 py-10 [overflow-wrap:anywhere]">
        <h1 className="text-2xl font-bold text-brand-800">Your account is ready</h1>
        <p role="status" className="text-slate-700">
          Two-factor sign-in is on. Save your recovery codes before you sign in.
        </p>
        <RecoveryCodes codes={recoveryCodes} onDone={() => setRecoveryCodes(null)} />
      </div>
    );
  }
  if (accepted) return <EmailLinkDone message="Your account is ready. Sign in with your username and password." />;
  return (
    <EmailLinkCard
      title="Accept your invitation"
      intro={
        invitation.data &&
        `Welcome, ${invitation.data.name}. Choose the username and password you will sign in with as ${invitation.data.role === 'owner' ? 'an owner' : 'a staff member'}.`
      }
      token={token}
      check={invitation}
      incomplete="This invitation link is incomplete. Open the link from the e-mail again."
      invalid="This invitation link is not valid."
    >
      {invitation.data && (
        <AcceptForm
          token={token}
          suggestedUsername={invitation.data.email}
          twoFactorRequired={invitation.data.twoFactorRequired}
          onAccepted={(codes) => {
            setAccepted(true);
            setRecoveryCodes(codes);
          }}
        />
      )}
    </EmailLinkCard>
  );
}

interface AcceptFormProps {
  token: string;
  suggestedUsername: string;
  twoFactorRequired: boolean;
  onAccepted: (recoveryCodes: string[] | null) => void;
}

function AcceptForm({ token, suggestedUsername, twoFactorRequired, onAccepted }: AcceptFormProps) {
  const accept = useAcceptInvitation();
  // Also when the owner turned the policy on after this page opened (the server says so).
  const [needsTwoFactor, setNeedsTwoFactor] = useState(twoFactorRequired);
  const form = useSchemaForm({
    id: 'accept',
    initial: { token, username: suggestedUsername, password: '', code: '' },
    schema: acceptInvitationSchema,
    submit: async (data) => {
      const answer = await accept.mutateAsync(data);
      toast({ title: 'Account created', description: 'Sign in with your new username and password.' });
      onAccepted(answer.recoveryCodes);
    },
    onError: (error, fields) => {
      if ((error as { body?: { twoFactorRequired?: boolean } | null }).body?.twoFactorRequired) setNeedsTwoFactor(true);
      if (Object.keys(fields).length === 0) toast({ variant: 'destructive', title: 'Error', description: errorMessage(error, 'Failed to create your account. Please try again.') });
    },
  });
  const { errors } = form;
  return (
    <form ref={form.ref} onSubmit={(e: FormEvent) => void form.handleSubmit(e)} noValidate className="space-y-4">
      <FormField id="accept-username" label="Username" error={errors.username} errorId={form.errorId('username')}>
        <Input id="accept-username" autoComplete="username" required {...form.field('username')} {...form.described('username')} />
      </FormField>
      <NewPasswordField id="accept-password" label="Password" error={errors.password} errorId={form.errorId('password')} {...form.field('password')} {...form.described('password')} />
      <AuthenticatorEnrolment token={token} required={needsTwoFactor} codeError={errors.code} codeErrorId={form.errorId('code')}>
        <Label htmlFor="accept-code">Code from the app</Label>
        <Input id="accept-code" inputMode="numeric" autoComplete="one-time-code" className="max-w-40" {...form.field('code')} {...form.described('code')} />
      </AuthenticatorEnrolment>
      <Button type="submit" className="w-full" disabled={form.pending}>
        {form.pending ? 'Creating account...' : 'Create account'}
      </Button>
    </form>
  );
}

/**
 * The invitee's authenticator app, set up before the account exists (the secret is kept with the
 * invitation, docs/product.md §6.8): required while the firm requires two-factor sign-in, else
 * offered. The code it shows (`children`'s input) goes with the acceptance.
 */
function AuthenticatorEnrolment({ token, required, codeError, codeErrorId, children }: { token: string; required: boolean; codeError?: string; codeErrorId: string; children: ReactNode }) {
  const start = useInvitationTwoFactor();
  return (
    <fieldset className="space-y-3 rounded-md border border-slate-200 p-3">
      <legend className="px-1 text-sm font-semibold text-slate-900">Two-factor sign-in{required ? '' : ' (optional)'}</legend>
      <p className="text-sm text-slate-700">
        {required
          ? 'The firm requires a code from an authenticator app (Google Authenticator, 1Password, Authy...) at every sign-in. Set it up now, before your account is created.'
          : 'Sign-in can also ask for a code from an authenticator app on your phone. You can set it up now or later from the admin panel.'}
      </p>
      {start.data ? (
        <>
          <p className="text-sm text-slate-700">Scan this code with the app, then enter the code it shows.</p>
          <QrCode value={start.data.otpauthUri} />
          <p className="text-sm text-slate-700">
            Or enter this key by hand:{' '}
            <code className="break-all rounded bg-slate-100 px-1 font-mono text-sm" data-testid="two-factor-secret">
              {start.data.secret.match(/.{1,4}/g)?.join(' ')}
            </code>
          </p>
          <div>{children}</div>
        </>
      ) : (
        <Button
          type="button"
          variant="outline"
          disabled={start.isPending}
          onClick={() => start.mutate(token, { onError: (error) => toast({ variant: 'destructive', title: 'Error', description: errorMessage(error, 'Failed to start the set-up. Please try again.') }) })}
        >
          Set up my authenticator app
        </Button>
      )}
      <FieldError id={codeErrorId} message={codeError} />
    </fieldset>
  );
}
