import { Loader2 } from 'lucide-react';
import { Button } from '../components/ui/button';
import { toast } from '../components/ui/use-toast';
import { useAdminLogout, useAdminSession } from '../features/admin/api/session';
import { AdminLoginCard } from '../features/admin/components/admin-login-card';
import { usePageMeta } from '../lib/page-meta';

/** /admin: the login card when signed out, the admin panel when signed in (SPEC 2, DECISIONS). */
export default function AdminPage() {
  usePageMeta({ title: 'Admin Panel', description: 'Administration' });
  const session = useAdminSession();
  const logout = useAdminLogout();

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
      <div className="flex items-center justify-between gap-4">
        <h1 className="text-3xl font-bold text-brand-800">Admin Panel</h1>
        <Button
          variant="outline"
          onClick={() =>
            logout.mutate(undefined, {
              onError: () => toast({ variant: 'destructive', title: 'Error', description: 'Failed to sign out. Please try again' }),
            })
          }
        >
          Logout
        </Button>
      </div>
      <p className="mt-2 text-slate-600">Signed in as {session.data.username}.</p>
    </section>
  );
}
