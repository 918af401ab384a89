import { useAccounts } from '../features/admin/api/users-api';
import { useReadFailures } from '../features/admin/api/admin-api';
import { AdminSubPage, OwnerOnlyNotice, QueryView, SignedInOnly } from '../features/admin/components/admin-page-parts';
import { AccountList, InviteCard, PendingInvitations, SecuritySettingsCard } from '../features/admin/components/users-panel';
import { usePageMeta } from '../lib/page-meta';

/**
 * /admin/users: the firm's accounts (docs/product.md §6.8), the owner's screen: invite, see,
 * resend and revoke pending invitations, change roles and the newsletter permission, deactivate,
 * send a password-reset link, see and end sessions, require two-factor.
 */
export default function AdminUsersPage() {
  usePageMeta({ title: 'Users', description: 'Accounts, roles and sessions' });
  return <SignedInOnly>{(username, session) => <UserAdministration username={username} isOwner={session.role === 'owner'} />}</SignedInOnly>;
}

const INTRO = 'Who can sign in to the back office, with which role, and where they are signed in.';

function UserAdministration({ username, isOwner }: { username: string; isOwner: boolean }) {
  return (
    <AdminSubPage width="5xl" title="Users" intro={INTRO}>
      {isOwner ? <Accounts username={username} /> : <OwnerOnlyNotice />}
    </AdminSubPage>
  );
}

function Accounts({ username }: { username: string }) {
  const accounts = useAccounts();
  useReadFailures(accounts, 'Failed to load users. Please try again.');
  return (
    <QueryView query={accounts} what="users">
      {(data) => (
        <>
          <InviteCard />
          <div className="space-y-3">
            <h2 className="text-xl font-semibold text-brand-800">Pending invitations</h2>
            <PendingInvitations invitations={data.invitations} />
          </div>
          <SecuritySettingsCard requireTwoFactor={data.settings.requireTwoFactor} />
          <div className="space-y-3">
            <h2 className="text-xl font-semibold text-brand-800">Accounts</h2>
            <AccountList accounts={data.users} selfUsername={username} />
          </div>
        </>
      )}
    </QueryView>
  );
}
