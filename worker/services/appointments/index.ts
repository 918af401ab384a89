// The appointments domain's door (docs/architecture.md, "Doors and the floor"): everything outside
// worker/services/appointments/ imports the domain from here, nothing from its files.

// Use cases: one function per operation, each returning a result the route maps to a status.
export { book, type BookResult } from './book';
export { setStatus, type AdminActor, type SetStatusResult } from './set-status';
export { cancelByLink, readLink, rescheduleByLink, type LinkActionResult, type LinkFailure, type ManagedAppointment } from './link-actions';
export { closedDaysBetween, dayAvailability } from './booking-calendar';

// The admin's reads and writes of the calendar: the appointment list, the firm's availability,
// the private feed and the busy calendars.
export { type AppointmentRow, listAppointments, searchAppointments } from './bookings';
export { type AdminAvailability, adminAvailabilityView, blockDate, bookingsOnBlockedDates, replaceWeeklyOffer, saveBookingRules, unblockDate } from './calendar';
export { feedEtag, feedStatus, feedUrls, isFeedSecret, renderFeed, rotateFeedSecret } from './calendar-feed';
export { addBusyCalendar, type BusyCalendarRow, findBusyCalendar, listBusyCalendars, refreshBusyCalendar, removeBusyCalendar } from './busy-calendars';
export { calendarUrlProblem, isLocalDevelopment, normalizeCalendarUrl, redactedCalendarUrl } from './calendar-fetch';

// The cron's part (worker/cron.ts): the job rows, and until its table runs them the passes they wrap.
export { busyCalendarJob, jobs, prunes, reminderJob } from './jobs';
export { sendDueReminders } from './reminders';
export { refreshDueBusyCalendars } from './busy-calendars';
