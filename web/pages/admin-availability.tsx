import { useReadFailures } from '../features/admin/api/admin-api';
import { useAvailability } from '../features/admin/api/availability-api';
import { AdminSubPage, LoadFailure, adminScreen } from '../features/admin/components/admin-page-parts';
import { BlockedDatesCard, WeekdaySlotsCard } from '../features/admin/components/availability-editor';
import { BookingRulesCard } from '../features/admin/components/booking-rules-card';
import { BusyCalendarsCard, CalendarFeedCard } from '../features/admin/components/calendar-sync';
import { isUnauthorized } from '../lib/api';

/**
 * /admin/availability: the firm's weekly hours, closed days, booking rules, busy calendars and calendar feed
 * (docs/product.md §6.4), behind the admin session.
 */
export default adminScreen({ title: 'Availability', description: 'Weekly hours and closed days' }, AvailabilityAdministration);

function AvailabilityAdministration() {
  const availability = useAvailability(true);
  useReadFailures(availability, 'Failed to load availability. Please try again.');

  return (
    <AdminSubPage width="4xl" title="Availability" intro="Which times visitors can book, and the days the office is closed.">
      {availability.isError && !isUnauthorized(availability.error) ? (
        <LoadFailure what="availability" error={availability.error} />
      ) : (
        <div className="space-y-6">
          <WeekdaySlotsCard availability={availability.data} />
          <BlockedDatesCard availability={availability.data} />
          <BookingRulesCard availability={availability.data} />
          <BusyCalendarsCard />
          <CalendarFeedCard />
        </div>
      )}
    </AdminSubPage>
  );
}
