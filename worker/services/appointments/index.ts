// The appointments domain's door (docs/architecture.md, "Doors and the floor"): everything outside
// worker/services/appointments/ imports the domain from here, nothing from its files.

// Use cases: one function per operation, each returning what the route maps to a status and JSON.
export { book } from './book';
export { confirmOrCancel } from './confirm-or-cancel';
export { cancelByLink, readLink, rescheduleByLink, type LinkActionResult } from './link-actions';
export { closedDaysBetween, dayAvailability } from './booking-calendar';
export { addBusyCalendarNow, blockDay, changeBookingRules, changeWeeklyOffer, refreshBusyCalendarNow, removeBusyCalendarNow, rotateFeed, unblockDay } from './admin-calendar';
export { calendarFeedFile } from './calendar-feed';

// The admin's reads: the appointment list, the firm's availability, the feed's status, the busy calendars.
export { type AppointmentRow, listAppointments, searchAppointments } from './bookings';
export { adminAvailabilityView } from './calendar';
export { feedStatus } from './calendar-feed';
export { type BusyCalendarRow, listBusyCalendars } from './busy-calendars';
export { redactedCalendarUrl } from './calendar-fetch';
// The cron's rows (worker/cron.ts): the reminders and the busy calendars, and the prunes (none).
export { busyCalendarJob, reminderJob, prunes } from './jobs';
