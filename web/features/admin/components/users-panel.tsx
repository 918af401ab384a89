import { ChevronDown, ChevronUp, KeyRound, MailPlus, ShieldCheck, UserPlus, XCircle } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Button, SubmitButton } from '../../../components/ui/button';
import { CardContent } from '../../../components/ui/card';
import { FormField, Input, Label } from '../../../components/ui/input';
import { toast } from '../../../components/ui/use-toast';
import { inviteUserSchema } from '#core/schemas/admin-accounts';
import { errorMessage } from '../../../lib/api';
import { useSchemaForm } from '../../../lib/use-schema-form';
import { formatDateTime } from '../lib/format';
import {
  useAccountSessions,
  useEndSession,
  useInvite,
  useResendInvitation,
  useRevokeInvitation,
  useSaveSecuritySettings,
  useSendPasswordReset,
  useSetAccountActive,
  useUpdateAccount,
  type AdminAccount,
  type PendingInvitation,
} from '../api/users-api';
import { PanelCard } from './admin-page-parts';

// The owner's users screen (/admin/users, docs/product.md §6.8): invite by e-mail, each account's
// role, newsletter permission, status and sessions, and the two-factor policy.

const failed = (description: string) => toast({ variant: 'destructive', title: 'Error', description });

export function InviteCard() {
  const invite = useInvite();
  const form = useSchemaForm({
    id: 'invite',
    initial: { name: '', email: '', role: 'staff' as 'owner' | 'staff', canSendNewsletters: false },
    schema: inviteUserSchema,
    submit: async (data) => {
      const answer = await invite.mutateAsync(data);
      toast({ title: 'Invitation sent', description: answer.message });
      form.setValues({ name: '', email: '', role: 'staff', canSendNewsletters: false });
    },
    onError: (error, fields) => {
      if (Object.keys(fields).length === 0) failed(errorMessage(error, 'Failed to send the invitation. Please try again.'));
    },
  });
  const { values, errors } = form;
  return (
    <PanelCard id="invite-heading" title="Invite a user" icon={UserPlus} intro="They get an e-mail with a link that works once, for 72 hours, to choose their username and password.">
      <CardContent>
        <form ref={form.ref} onSubmit={(e: FormEvent) => void form.handleSubmit(e)} noValidate className="grid gap-4 sm:grid-cols-2">
          <FormField id="invite-name" label="Name" error={errors.name} errorId={form.errorId('name')}>
            <Input id="invite-name" required autoComplete="off" {...form.field('name')} {...form.described('name')} />
          </FormField>
          <FormField id="invite-email" label="Email" error={errors.email} errorId={form.errorId('email')}>
            <Input id="invite-email" type="email" required autoComplete="off" {...form.field('email')} {...form.described('email')} />
          </FormField>
          <div>
            <Label htmlFor="invite-role">Role</Label>
            <select
              id="invite-role"
              name="role"
              value={values.role}
              onChange={(e) => form.setValue('role', e.target.value as 'owner' | 'staff')}
              className="h-10 w-full rounded-md border border-slate-300 bg-white px-2 text-sm text-slate-900"
            >
              <option value="staff">Staff</option>
              <option value="owner">Owner</option>
            </select>
          </div>
          <label className="flex min-h-11 cursor-pointer items-center gap-3 self-end text-sm font-medium text-slate-900">
            <input
              type="checkbox"
              name="canSendNewsletters"
              className="h-5 w-5 cursor-pointer accent-brand-700"
              checked={values.role === 'owner' || values.canSendNewsletters}
              disabled={values.role === 'owner'}
              onChange={(e) => form.setValue('canSendNewsletters', e.target.checked)}
            />
            May send newsletters
          </label>
          <div className="sm:col-span-2">
            <SubmitButton pending={form.pending} busy="Sending...">
              Send invitation
            </SubmitButton>
          </div>
        </form>
      </CardContent>
    </PanelCard>
  );
}

/**
 * The invitations not yet accepted (docs/product.md §6.8): to whom, which role, who sent it and until
 * when its link works, with Resend (a new link; the old one stops working) and Withdraw.
 */
export function PendingInvitations({ invitations }: { invitations: PendingInvitation[] }) {
  const revoke = useRevokeInvitation();
  const resend = useResendInvitation();
  const busy = revoke.isPending || resend.isPending;
  if (invitations.length === 0) return <p className="text-sm text-slate-600">No invitations are waiting to be accepted.</p>;
  return (
    <ul className="space-y-3" aria-label="Pending invitations">
      {invitations.map((invitation) => {
        const { expired } = invitation;
        return (
          <li key={invitation.id} data-testid="invitation-row" data-email={invitation.email} className="flex flex-wrap items-start justify-between gap-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
            <div className="min-w-0 flex-1 basis-64">
              <p className="font-semibold text-slate-900">
                {invitation.name} <span className="font-normal text-slate-700">· {invitation.email}</span>
              </p>
              <p className="text-sm text-slate-700">
                {invitation.role === 'owner' ? 'Owner' : invitation.canSendNewsletters ? 'Staff, may send newsletters' : 'Staff'} · invited by {invitation.invitedBy}
              </p>
              <p className={expired ? 'text-sm font-medium text-red-800' : 'text-sm text-slate-600'}>
                {expired ? `Link expired ${formatDateTime(invitation.expiresAt)}` : `Link works until ${formatDateTime(invitation.expiresAt)}`}
              </p>
            </div>
            <div className="flex flex-wrap gap-2">
              <Button
                variant="outline"
                size="sm"
                disabled={busy}
                aria-label={`Resend the invitation to ${invitation.email}`}
                onClick={() =>
                  resend.mutate(invitation.id, {
                    onSuccess: (answer) => toast({ title: 'Invitation resent', description: answer.message }),
                    onError: (error) => failed(errorMessage(error, 'Failed to resend the invitation. Please try again.')),
                  })
                }
              >
                <MailPlus className="h-4 w-4" aria-hidden="true" />
                Resend
              </Button>
              <Button
                variant="destructive"
                size="sm"
                disabled={busy}
                aria-label={`Revoke the invitation to ${invitation.email}`}
                onClick={() =>
                  revoke.mutate(invitation.id, {
                    onSuccess: (answer) => toast({ title: 'Invitation revoked', description: answer.message }),
                    onError: (error) => failed(errorMessage(error, 'Failed to revoke the invitation. Please try again.')),
                  })
                }
              >
                <XCircle className="h-4 w-4" aria-hidden="true" />
                Revoke
              </Button>
            </div>
          </li>
        );
      })}
    </ul>
  );
}

export function SecuritySettingsCard({ requireTwoFactor }: { requireTwoFactor: boolean }) {
  const save = useSaveSecuritySettings();
  return (
    <PanelCard id="security-heading" title="Security settings" icon={ShieldCheck} intro="With this on, anyone without two-factor sign-in is sent to set it up when they sign in, and can do nothing else until it is on.">
      <CardContent>
        <label className="flex min-h-11 cursor-pointer items-center gap-3 text-sm font-medium text-slate-900">
          <input
            type="checkbox"
            className="h-5 w-5 cursor-pointer accent-brand-700"
            checked={requireTwoFactor}
            disabled={save.isPending}
            onChange={(e) =>
              save.mutate(
                { requireTwoFactor: e.target.checked },
                {
                  onSuccess: ({ settings }) =>
                    toast({ title: 'Saved', description: settings.requireTwoFactor ? 'Two-factor sign-in is now required for everyone.' : 'Two-factor sign-in is now optional.' }),
                  onError: (error) => failed(errorMessage(error, 'Failed to save the setting. Please try again.')),
                },
              )
            }
          />
          Require two-factor for everyone
        </label>
      </CardContent>
    </PanelCard>
  );
}

export function AccountList({ accounts, selfUsername }: { accounts: AdminAccount[]; selfUsername: string }) {
  return (
    <ul className="space-y-4" aria-label="Users">
      {accounts.map((account) => (
        <AccountCard key={account.id} account={account} isSelf={account.username === selfUsername} />
      ))}
    </ul>
  );
}

function AccountCard({ account, isSelf }: { account: AdminAccount; isSelf: boolean }) {
  const update = useUpdateAccount();
  const setActive = useSetAccountActive();
  const sendReset = useSendPasswordReset();
  const [showSessions, setShowSessions] = useState(false);
  const active = account.status === 'active';
  const label = account.name || account.username;
  const onError = (error: unknown) => failed(errorMessage(error, 'Failed to update the user. Please try again.'));
  return (
    <li data-testid="user-row" data-username={account.username} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="font-semibold text-slate-900">
            {label}
            {isSelf && <span className="ml-2 text-sm font-normal text-slate-600">(you)</span>}
          </p>
          <p className="text-sm text-slate-700">
            {account.username}
            {account.email && ` · ${account.email}`}
          </p>
          <p className="text-sm text-slate-600">
            {active ? 'Active' : 'Deactivated'} · Two-factor {account.twoFactor ? 'on' : 'off'}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <div className="flex items-center gap-2">
            <label htmlFor={`role-${account.id}`} className="text-sm font-medium text-slate-700">
              Role
            </label>
            <select
              id={`role-${account.id}`}
              value={account.role}
              disabled={update.isPending}
              onChange={(e) => update.mutate({ id: account.id, role: e.target.value as 'owner' | 'staff' }, { onSuccess: () => toast({ title: 'Role changed', description: `${label} is now ${e.target.value}.` }), onError })}
              className="h-10 rounded-md border border-slate-300 bg-white px-2 text-sm text-slate-900"
            >
              <option value="owner">Owner</option>
              <option value="staff">Staff</option>
            </select>
          </div>
          <Button
            variant={active ? 'destructive' : 'outline'}
            size="sm"
            disabled={setActive.isPending}
            onClick={() =>
              setActive.mutate(
                { id: account.id, active: !active },
                { onSuccess: (answer) => toast({ title: active ? 'User deactivated' : 'User reactivated', description: answer.message }), onError },
              )
            }
          >
            {active ? `Deactivate ${label}` : `Reactivate ${label}`}
          </Button>
        </div>
      </div>
      {account.role === 'staff' && (
        <label className="mt-2 flex min-h-11 cursor-pointer items-center gap-3 text-sm text-slate-900">
          <input
            type="checkbox"
            className="h-5 w-5 cursor-pointer accent-brand-700"
            checked={account.canSendNewsletters}
            disabled={update.isPending}
            onChange={(e) => update.mutate({ id: account.id, canSendNewsletters: e.target.checked }, { onError })}
          />
          May send newsletters
        </label>
      )}
      <div className="mt-2 flex flex-wrap gap-2">
        <Button variant="ghost" size="sm" aria-expanded={showSessions} onClick={() => setShowSessions((v) => !v)}>
          {showSessions ? <ChevronUp className="h-4 w-4" aria-hidden="true" /> : <ChevronDown className="h-4 w-4" aria-hidden="true" />}
          Sessions of {label}
        </Button>
        {active && account.email && !isSelf && (
          <Button
            variant="ghost"
            size="sm"
            disabled={sendReset.isPending}
            onClick={() =>
              sendReset.mutate(account.id, {
                onSuccess: (answer) => toast({ title: 'Password-reset link sent', description: answer.message }),
                onError: (error) => failed(errorMessage(error, 'Failed to send the password-reset link. Please try again.')),
              })
            }
          >
            <KeyRound className="h-4 w-4" aria-hidden="true" />
            Send {label} a password-reset link
          </Button>
        )}
      </div>
      {showSessions && <AccountSessions id={account.id} label={label} />}
    </li>
  );
}

function AccountSessions({ id, label }: { id: number; label: string }) {
  const sessions = useAccountSessions(id, true);
  const end = useEndSession();
  if (sessions.isPending) return <p className="mt-2 text-sm text-slate-600">Loading sessions...</p>;
  if (sessions.isError) return <p className="mt-2 text-sm text-red-800">Failed to load sessions: {errorMessage(sessions.error, 'Please try again.')}</p>;
  if (sessions.data.length === 0) return <p className="mt-2 text-sm text-slate-600">{label} is not signed in anywhere.</p>;
  return (
    <ul className="mt-2 space-y-2" aria-label={`Sessions of ${label}`}>
      {sessions.data.map((session) => (
        <li key={session.id} data-testid="session-row" className="flex flex-wrap items-center justify-between gap-2 rounded-md bg-slate-50 px-3 py-2 text-sm text-slate-800">
          <span>
            Signed in from {session.device}
            {session.country && ` (${session.country})`} since {formatDateTime(session.createdAt)}
            {session.current && ' · this browser'}
          </span>
          <Button
            variant="outline"
            size="sm"
            disabled={end.isPending}
            onClick={() =>
              end.mutate(
                { id, sessionId: session.id },
                { onSuccess: (answer) => toast({ title: 'Signed out', description: answer.message }), onError: (error) => failed(errorMessage(error, 'Failed to sign out that session.')) },
              )
            }
          >
            Sign out
          </Button>
        </li>
      ))}
    </ul>
  );
}
