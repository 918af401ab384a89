import { Download, KeyRound, Send, Upload } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from '../components/ui/button';
import { Card, CardContent, CardHeader } from '../components/ui/card';
import { toast } from '../components/ui/use-toast';
import { useEndSessionOn401, useLoadFailureToast, useSentNewsletters } from '../features/admin/api/admin-api';
import { useFetchAllSubscribers, useSubscriberCounts, useSubscriberSearch } from '../features/admin/api/subscribers-api';
import { AdminSpinner, AdminSubPageHeading, adminScreen } from '../features/admin/components/admin-page-parts';
import { ChangePasswordDialog } from '../features/admin/components/change-password-dialog';
import { ImportSubscribersDialog } from '../features/admin/components/import-subscribers-dialog';
import { SendNewsletterDialog } from '../features/admin/components/send-newsletter-dialog';
import { SentNewslettersHistory } from '../features/admin/components/sent-newsletters-history';
import { SignOutButton, useToLoginAfterSignOut } from '../features/admin/components/sign-out-button';
import { ListSearch, Pager, useListParams } from '../features/admin/components/list-controls';
import { SubscribersTable } from '../features/admin/components/subscribers-table';
import { downloadText } from '../features/admin/lib/download';
import { buildSubscribersCsv, subscribersCsvFileName } from '../features/admin/lib/subscribers-csv';
import { isUnauthorized } from '../lib/api';

const RECENT_DAYS = 30; // docs/product.md §6.3: "recent" means subscribed within 30 days (counted by the server).
const LOAD_FAILED = 'Failed to load subscribers. Please try again.';
const STATUSES = [
  { value: 'active', label: 'Active' },
  { value: 'inactive', label: 'Inactive' },
];

/** /admin/subscribers: subscriber administration (docs/product.md §6.3), behind the admin session. */
export default adminScreen({ title: 'Newsletter Subscribers', description: 'Subscriber administration' }, SubscriberAdministration);

function SubscriberAdministration() {
  const toLogin = useToLoginAfterSignOut();
  // The server searches and pages the list (docs/product.md §6.3); the address keeps the search.
  const { params, update, query } = useListParams();
  const subscribers = useSubscriberSearch(query);
  const counts = useSubscriberCounts();
  const history = useSentNewsletters(true);
  const fetchAll = useFetchAllSubscribers();
  useEndSessionOn401(subscribers, counts, history);
  const [sendOpen, setSendOpen] = useState(false);
  const [passwordOpen, setPasswordOpen] = useState(false);
  const [importOpen, setImportOpen] = useState(false);
  const [exporting, setExporting] = useState(false);

  const loadFailed = (subscribers.error && !isUnauthorized(subscribers.error)) || (counts.error && !isUnauthorized(counts.error));
  useEffect(() => {
    if (loadFailed) toast({ variant: 'destructive', title: 'Error', description: LOAD_FAILED });
  }, [loadFailed]);
  useLoadFailureToast(history.error, 'Failed to load sent newsletters history.');

  const page = subscribers.data;
  const stats = counts.data ?? { total: 0, active: 0, recent: 0 };
  const filtered = Boolean(params.q || params.status || params.from || params.to);

  // The export is every subscriber, whatever the search: read when asked, not kept on the screen.
  async function downloadCsv() {
    setExporting(true);
    let list;
    try {
      list = await fetchAll();
    } catch (error) {
      if (!isUnauthorized(error)) toast({ variant: 'destructive', title: 'Error', description: LOAD_FAILED });
      return;
    } finally {
      setExporting(false);
    }
    downloadText(subscribersCsvFileName(), buildSubscribersCsv(list));
  }

  if (subscribers.isPending || counts.isPending) return <AdminSpinner />;

  return (
    <section className="mx-auto max-w-7xl space-y-8 px-4 py-10 [overflow-wrap:anywhere] sm:px-6 lg:px-8">
      {/* SPEC.md's header and its row (Sign Out included; Import CSV, ours, after it), then the back-office navigation without
          a second sign-out button (admin-nav.tsx, SignOutMode). */}
      <AdminSubPageHeading
        title="Newsletter Subscribers"
        intro="Manage your newsletter subscription list"
        signOut="none"
        actions={
          <div className="flex flex-wrap gap-2">
            <Button icon={Send} onClick={() => setSendOpen(true)}>Send Newsletter</Button>
            <Button icon={KeyRound} variant="outline" onClick={() => setPasswordOpen(true)}>Change Password</Button>
            <Button icon={Download} variant="outline" onClick={() => void downloadCsv()} disabled={exporting}>Download CSV</Button>
            <SignOutButton label="Sign Out" onSignedOut={toLogin} />
            <Button icon={Upload} variant="outline" onClick={() => setImportOpen(true)}>Import CSV</Button>
          </div>
        }
      />

      {/* Three across from 360 px; below that a label such as "Subscribers" no longer fits a third. */}
      <div className="grid grid-cols-1 gap-2 min-[360px]:grid-cols-3 sm:gap-4">
        <StatCard label="Total Subscribers" value={stats.total} />
        <StatCard label="Active Subscribers" value={stats.active} />
        <StatCard label="Recent Subscribers" value={stats.recent} hint={`Last ${RECENT_DAYS} days`} />
      </div>

      <div className="space-y-3">
        <ListSearch label="Search subscribers" placeholder="E-mail or name" params={params} onChange={update} statuses={STATUSES} dateRange />
        {subscribers.isError && !page ? (
          <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-4 text-sm text-red-800">
            {LOAD_FAILED}
          </p>
        ) : (
          <SubscribersTable page={page} filtered={filtered} loading={subscribers.isPlaceholderData} />
        )}
        {page && <Pager label="Subscriber pages" page={page.page} total={page.total} onPage={(next) => update({ page: next })} />}
      </div>

      <SentNewslettersHistory newsletters={history.data} />

      <SendNewsletterDialog open={sendOpen} onOpenChange={setSendOpen} activeCount={stats.active} />
      <ChangePasswordDialog open={passwordOpen} onOpenChange={setPasswordOpen} />
      <ImportSubscribersDialog open={importOpen} onOpenChange={setImportOpen} />
    </section>
  );
}

function StatCard({ label, value, hint }: { label: string; value: number; hint?: string }) {
  return (
    <Card>
      <CardHeader padding="p-3 pb-1 sm:p-6 sm:pb-2">
        <h2 className="text-xs font-medium text-slate-600 sm:text-sm">{label}</h2>
      </CardHeader>
      <CardContent padding="p-3 pt-0 sm:p-6 sm:pt-0">
        <p className="text-2xl font-bold text-brand-800 sm:text-3xl" data-testid={`stat-${label.toLowerCase().replaceAll(' ', '-')}`}>
          {value.toLocaleString('en-US')}
        </p>
        {hint && <p className="text-xs text-slate-500">{hint}</p>}
      </CardContent>
    </Card>
  );
}
