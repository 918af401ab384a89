import { ArrowLeft, Loader2 } from 'lucide-react';
import { useEffect } from 'react';
import { Link } from 'react-router';
import { toast } from '../components/ui/use-toast';
import { useEndSessionOn401 } from '../features/admin/api/admin-api';
import { useAvailability } from '../features/admin/api/availability-api';
import { useAdminSession } from '../features/admin/api/session';
import { AdminLoginCard } from '../features/admin/components/admin-login-card';
import { BlockedDatesCard, WeekdaySlotsCard } from '../features/admin/components/availability-editor';
import { errorMessage, isUnauthorized } from '../lib/api';
import { usePageMeta } from '../lib/page-meta';

/** /admin/availability: the firm's weekly hours and closed days (docs/product.md §6.4), behind the admin session. */
export default function AdminAvailabilityPage() {
  usePageMeta({ title: 'Availability', description: 'Weekly hours and closed days' });
  const session = useAdminSession();
  if (session.isPending) {
    return (
      <div className="flex justify-center py-24" role="status" aria-label="Loading">
        <Loader2 className="h-8 w-8 animate-spin text-brand-700" aria-hidden="true" />
      </div>
    );
  }
  if (!session.data?.authenticated) return <AdminLoginCard />;
  return <AvailabilityAdministration />;
}

function AvailabilityAdministration() {
  const availability = useAvailability(true);
  useEndSessionOn401(availability);

  useEffect(() => {
    if (availability.error && !isUnauthorized(availability.error)) {
      toast({ variant: 'destructive', title: 'Error', description: 'Failed to load availability. Please try again.' });
    }
  }, [availability.error]);

  return (
    <section className="mx-auto max-w-4xl space-y-8 px-4 py-10 sm:px-6 lg:px-8">
      <div>
        <Link to="/admin" className="mb-2 inline-flex items-center gap-1 text-sm text-brand-700 hover:underline">
          <ArrowLeft className="h-4 w-4" aria-hidden="true" />
          Admin Panel
        </Link>
        <h1 className="text-3xl font-bold text-brand-800">Availability</h1>
        <p className="mt-1 text-slate-600">Which times visitors can book, and the days the office is closed.</p>
      </div>
      {availability.isError && !isUnauthorized(availability.error) ? (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-4 text-sm text-red-800">
          Failed to load availability: {errorMessage(availability.error, 'Please try again.')}
        </p>
      ) : (
        <div className="space-y-6">
          <WeekdaySlotsCard availability={availability.data} />
          <BlockedDatesCard availability={availability.data} />
        </div>
      )}
    </section>
  );
}
