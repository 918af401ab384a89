import { Loader2 } from 'lucide-react';
import { useAdminSession } from '../features/admin/api/session';
import { AdminLoginCard } from '../features/admin/components/admin-login-card';
import { usePageMeta } from '../lib/page-meta';

/** /admin/subscribers: subscriber administration (SPEC 2), behind the admin session. */
export default function AdminSubscribersPage() {
  usePageMeta({ title: 'Newsletter Subscribers', description: 'Subscriber administration' });
  const session = useAdminSession();
  if (session.isPending) {
    return (
      <div className="flex justify-center py-24" role="status" aria-label="Loading">
        <Loader2 className="h-8 w-8 animate-spin text-brand-700" aria-hidden="true" />
      </div>
    );
  }
  if (!session.data?.authenticated) return <AdminLoginCard />;
  return (
    <section className="mx-auto max-w-7xl px-4 py-10 sm:px-6 lg:px-8">
      <h1 className="text-3xl font-bold text-brand-800">Newsletter Subscribers</h1>
      <p className="mt-2 text-slate-600">Manage your newsletter subscription list</p>
    </section>
  );
}
