import { CalendarCheck, CalendarX, Download } from 'lucide-react';
import { useState } from 'react';
import { Badge, type BadgeVariant } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardHeader } from '../../../components/ui/card';
import { Dialog, DialogActions } from '../../../components/ui/dialog';
import { TextOptions } from '../../../components/ui/input';
import { Skeleton } from '../../../components/ui/skeleton';
import { toast } from '../../../components/ui/use-toast';
import { bookingTimeSlots, NO_PREFERRED_TIME } from '#core/content/booking';
import { errorMessage } from '../../../lib/api';
import { fetchAllAppointments, useAppointmentPage, useEndSessionOn401, useFreeSlots, useUpdateAppointmentStatus, type Appointment } from '../api/admin-api';
import { buildAppointmentsCsv } from '../lib/csv';
import { firmToday, formatCalendarDay, formatSlot } from '../lib/format';
import { useCsvExport } from '../lib/use-csv-export';
import { LoadFailure, SectionHeading } from './admin-page-parts';
import { BreakableAddress } from './breakable-address';
import { ListSearch, Pager, useListParams, type ListParams } from './list-controls';

const statusLook: Record<Appointment['status'], { label: string; variant: BadgeVariant }> = {
  requested: { label: 'Requested', variant: 'warning' },
  confirmed: { label: 'Confirmed', variant: 'success' },
  cancelled: { label: 'Cancelled', variant: 'secondary' },
};

// The list's status filter (core/schemas/appointments.ts APPOINTMENT_STATUSES).
const STATUS_FILTERS = (Object.keys(statusLook) as Appointment['status'][]).map((value) => ({ value, label: statusLook[value].label }));

/** Consecutive appointments of the same day, in the order given (the API's: upcoming soonest first, past latest first). */
function groupByDay(list: Appointment[]): { date: string; items: Appointment[] }[] {
  const groups: { date: string; items: Appointment[] }[] = [];
  for (const a of list) {
    const last = groups.at(-1);
    if (last?.date === a.date) last.items.push(a);
    else groups.push({ date: a.date, items: [a] });
  }
  return groups;
}

/** 'Today', 'Tomorrow' or '', for the day headings (days are the firm's calendar days). */
function relativeDay(date: string, today: string): string {
  if (date === today) return 'Today';
  const tomorrow = new Date(`${today}T12:00:00Z`);
  tomorrow.setUTCDate(tomorrow.getUTCDate() + 1);
  return date === tomorrow.toISOString().slice(0, 10) ? 'Tomorrow' : '';
}

/** "No upcoming confirmed appointments matching “Smith”.": what an empty side of the list says. */
function nothingSaying(side: 'upcoming' | 'past', params: ListParams): string {
  const status = params.status && params.status in statusLook ? `${statusLook[params.status as Appointment['status']].label.toLowerCase()} ` : '';
  const days = params.from || params.to ? ' in these dates' : '';
  return `No ${side} ${status}appointments${params.q ? ` matching “${params.q}”` : ''}${days}.`;
}

/**
 * Consultation requests grouped by day, searched and paged by the server (50 a page, the search in
 * the address as "appointments-q", "appointments-page"...): upcoming first (today at the top, in the
 * firm's time zone), past ones on request, a status filter and dates, and a CSV export of every
 * appointment. Confirm or cancel e-mails the visitor. A request without a time shows "No preferred
 * time", and confirming it asks the admin to pick one of that day's free slots (docs/product.md §3).
 */
export function AppointmentsPanel() {
  const today = firmToday();
  const { params, update, query } = useListParams('appointments');
  const upcoming = useAppointmentPage({ ...query, when: 'upcoming' }, true);
  useEndSessionOn401(upcoming);
  const [showPast, setShowPast] = useState(false);
  // The past side's page, for this search only: a new search starts it at 1 again.
  const searchKey = JSON.stringify([params.q, params.status, params.from, params.to]);
  const [pastPaging, setPastPaging] = useState({ searchKey, page: 1 });
  const pastPage = pastPaging.searchKey === searchKey ? pastPaging.page : 1;
  const { page: _mainPage, ...search } = query;
  const past = useAppointmentPage({ ...search, when: 'past', ...(pastPage > 1 ? { page: String(pastPage) } : {}) }, showPast);
  const data = upcoming.data;
  const filtered = Boolean(params.q || params.status || params.from || params.to);
  // Every appointment, whatever is searched, in calendar order.
  const { exporting, exportCsv } = useCsvExport(
    'appointments',
    async () => buildAppointmentsCsv([...(await fetchAllAppointments())].sort((x, y) => x.date.localeCompare(y.date) || slotIndex(x.timeSlot) - slotIndex(y.timeSlot) || x.id - y.id)),
    'The appointments could not be exported',
  );

  return (
    <section aria-labelledby="appointments-heading" className="space-y-4">
      <div className="flex flex-wrap items-center gap-3">
        <SectionHeading id="appointments-heading">Appointments</SectionHeading>
        {data && <Badge variant={data.awaiting > 0 ? 'warning' : 'secondary'}>{data.awaiting} awaiting confirmation</Badge>}
      </div>
      {upcoming.isPending ? (
        <Skeleton className="h-24 w-full" />
      ) : upcoming.error ? (
        <LoadFailure what="appointments" error={upcoming.error} />
      ) : !data || (data.upcoming + data.past === 0 && !filtered) ? (
        <Card>
          <CardContent className="text-center text-sm text-slate-600" padding="px-6 py-8">No appointment requests yet.</CardContent>
        </Card>
      ) : (
        <>
          <ListSearch
            label="Search appointments"
            params={params}
            onChange={update}
            placeholder="Name, e-mail, phone, notes or service"
            statuses={STATUS_FILTERS}
            dateRange
          />
          <div className="flex flex-wrap items-center justify-between gap-3">
            {filtered ? (
              <p className="text-sm text-slate-700" role="status" data-testid="appointments-result-count">
                {data.upcoming} upcoming and {data.past} past {data.upcoming + data.past === 1 ? 'appointment matches' : 'appointments match'}
                {params.q ? ` “${params.q}”` : ''}.
              </p>
            ) : (
              <span />
            )}
            <Button variant="outline" size="sm" onClick={() => void exportCsv()} disabled={exporting}>
              <Download className="h-4 w-4" aria-hidden="true" />
              Export appointments CSV
            </Button>
          </div>
          {data.items.length === 0 && data.total === 0 ? (
            <p className="text-sm text-slate-600">{nothingSaying('upcoming', params)}</p>
          ) : (
            <div className="space-y-3" aria-busy={upcoming.isPlaceholderData}>
              <DayGroups label="Upcoming appointments" groups={groupByDay(data.items)} today={today} actionable />
              <Pager label="Upcoming appointment pages" page={params.page} total={data.total} onPage={(page) => update({ page })} />
            </div>
          )}
          <div className="space-y-3">
            <Button variant="ghost" size="sm" aria-expanded={showPast} aria-controls="past-appointments" onClick={() => setShowPast((v) => !v)}>
              {showPast ? 'Hide past appointments' : `Show past appointments (${data.past})`}
            </Button>
            <div id="past-appointments" hidden={!showPast} aria-busy={past.isFetching}>
              {showPast &&
                (past.isPending ? (
                  <p className="text-sm text-slate-600">Loading past appointments...</p>
                ) : past.error ? (
                  <p role="alert" className="text-sm text-red-800">
                    Failed to load past appointments: {errorMessage(past.error, 'Please try again.')}
                  </p>
                ) : past.data.items.length === 0 && past.data.total === 0 ? (
                  <p className="text-sm text-slate-600">{nothingSaying('past', params)}</p>
                ) : (
                  <div className="space-y-3">
                    <DayGroups label="Past appointments" groups={groupByDay(past.data.items)} today={today} actionable={false} />
                    <Pager label="Past appointment pages" page={pastPage} total={past.data.total} onPage={(page) => setPastPaging({ searchKey, page })} />
                  </div>
                ))}
            </div>
          </div>
        </>
      )}
    </section>
  );
}

// A request without a time (null) first in its day, as the API lists it.
const slotIndex = (slot: string | null) => (slot === null ? -1 : (bookingTimeSlots as readonly string[]).indexOf(slot));

function DayGroups({ label, groups, today, actionable }: { label: string; groups: { date: string; items: Appointment[] }[]; today: string; actionable: boolean }) {
  return (
    <ol className="space-y-4" aria-label={label}>
      {groups.map((g) => {
        const relative = relativeDay(g.date, today);
        const headingId = `appointments-day-${label.startsWith('Past') ? 'past' : 'upcoming'}-${g.date}`;
        return (
          <li key={g.date} data-testid="appointment-day" data-date={g.date}>
            <h3 id={headingId} className="mb-2 text-sm font-semibold text-slate-800">
              {relative && <span className="text-brand-700">{relative} · </span>}
              {formatCalendarDay(g.date)}
              <span className="font-normal text-slate-600"> ({g.items.length})</span>
            </h3>
            <ul className="grid grid-cols-1 gap-3 md:grid-cols-2 lg:grid-cols-1" aria-labelledby={headingId}>
              {g.items.map((a) => (
                <li key={a.id}>
                  <AppointmentCard appointment={a} actionable={actionable} />
                </li>
              ))}
            </ul>
          </li>
        );
      })}
    </ol>
  );
}

function AppointmentCard({ appointment: a, actionable }: { appointment: Appointment; actionable: boolean }) {
  const update = useUpdateAppointmentStatus();
  const [confirmCancel, setConfirmCancel] = useState(false);
  const [pickingTime, setPickingTime] = useState(false);
  const look = statusLook[a.status];

  function setStatus(status: 'confirmed' | 'cancelled', timeSlot?: Appointment['timeSlot']) {
    setConfirmCancel(false);
    update.mutate(
      { id: a.id, status, ...(timeSlot ? { timeSlot: timeSlot as (typeof bookingTimeSlots)[number] } : {}) },
      {
        onSuccess: () => {
          setPickingTime(false);
          toast({
            title: status === 'confirmed' ? 'Appointment confirmed' : 'Appointment cancelled',
            description: `${a.name} has been notified by e-mail.`,
          });
        },
        onError: (error) => toast({ variant: 'destructive', title: 'Failed to update appointment', description: errorMessage(error, 'Please try again') }),
      },
    );
  }

  return (
    <Card data-testid="appointment-card" className="h-full">
      <CardHeader className="pb-2">
        <div className="flex flex-wrap items-start justify-between gap-2">
          <div>
            {/* The day is the group's heading above. */}
            <h4 className="font-semibold text-slate-900">
              {formatSlot(a.timeSlot)} · {a.serviceType}
            </h4>
          </div>
          <Badge variant={look.variant}>{look.label}</Badge>
        </div>
      </CardHeader>
      <CardContent className="space-y-3 text-sm">
        <div className="text-slate-700">
          <p className="font-medium text-slate-900">{a.name}</p>
          <p>
            <a className="inline-block leading-6 text-brand-700 underline" href={`mailto:${a.email}`}>
              <BreakableAddress address={a.email} />
            </a>
          </p>
          {a.phone && (
            <p>
              <a className="inline-block leading-6 text-brand-700 underline" href={`tel:${a.phone.replace(/[^\d+]/g, '')}`}>
                {a.phone}
              </a>
            </p>
          )}
        </div>
        {a.notes && <p className="whitespace-pre-wrap break-words rounded bg-slate-50 p-2 text-slate-700">{a.notes}</p>}
        {actionable && a.status !== 'cancelled' && (
          <div className="flex flex-wrap gap-2">
            {a.status === 'requested' && (
              // Without a time, the admin first picks one of the day's free slots.
              <Button size="sm" onClick={() => (a.timeSlot === null ? setPickingTime(true) : setStatus('confirmed'))} disabled={update.isPending}>
                <CalendarCheck className="h-4 w-4" aria-hidden="true" />
                Confirm
              </Button>
            )}
            <Button size="sm" variant="outline" onClick={() => setConfirmCancel(true)} disabled={update.isPending}>
              <CalendarX className="h-4 w-4" aria-hidden="true" />
              Cancel
            </Button>
          </div>
        )}
      </CardContent>
      <Dialog
        open={confirmCancel}
        onOpenChange={setConfirmCancel}
        title="Cancel this appointment?"
        description={
          a.timeSlot === null
            ? `${a.serviceType} on ${formatCalendarDay(a.date)} (${NO_PREFERRED_TIME}) for ${a.name}. They will be told by e-mail.`
            : `${a.serviceType} on ${formatCalendarDay(a.date)} at ${formatSlot(a.timeSlot)} for ${a.name}. They will be told by e-mail and the slot becomes free again.`
        }
      >
        <DialogActions cancel="Keep it" onCancel={() => setConfirmCancel(false)}>
          <Button variant="destructive" onClick={() => setStatus('cancelled')}>
            Cancel appointment
          </Button>
        </DialogActions>
      </Dialog>
      {a.timeSlot === null && (
        <PickTimeDialog appointment={a} open={pickingTime} onOpenChange={setPickingTime} pending={update.isPending} onConfirm={(slot) => setStatus('confirmed', slot)} />
      )}
    </Card>
  );
}

/** Confirming a request without a time: one of that day's free slots, read when the dialog opens. */
function PickTimeDialog({
  appointment: a,
  open,
  onOpenChange,
  pending,
  onConfirm,
}: {
  appointment: Appointment;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  pending: boolean;
  onConfirm: (slot: string) => void;
}) {
  const free = useFreeSlots(a.date, open);
  const [slot, setSlot] = useState('');
  const selectId = `appointment-${a.id}-time`;
  const slots = free.data ?? [];
  const chosen = slots.includes(slot as (typeof slots)[number]) ? slot : '';
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Confirm with a time"
      description={`${a.name} asked for ${a.serviceType} on ${formatCalendarDay(a.date)} with no preferred time. Pick a free time: they get the calendar invite with the confirmation.`}
    >
      <div className="space-y-4">
        {free.isPending ? (
          <p className="text-sm text-slate-600">Loading free times...</p>
        ) : free.error ? (
          <p role="alert" className="text-sm text-red-800">
            Failed to load the free times: {errorMessage(free.error, 'Please try again.')}
          </p>
        ) : slots.length === 0 ? (
          <p role="status" className="text-sm text-amber-800">
            No free times are left on this day. Cancel the request, or call the visitor to agree another day.
          </p>
        ) : (
          <div>
            <label htmlFor={selectId} className="mb-1 block text-sm font-medium text-slate-800">
              Time
            </label>
            <select
              id={selectId}
              value={chosen}
              onChange={(e) => setSlot(e.target.value)}
              className="block h-10 w-full rounded-md border border-slate-300 bg-white px-3 text-sm text-slate-900"
            >
              <option value="" disabled>
                Select a free time
              </option>
              <TextOptions values={slots} />
            </select>
          </div>
        )}
        <DialogActions cancel="Back" onCancel={() => onOpenChange(false)}>
          <Button onClick={() => onConfirm(chosen)} disabled={!chosen || pending}>
            <CalendarCheck className="h-4 w-4" aria-hidden="true" />
            Confirm appointment
          </Button>
        </DialogActions>
      </div>
    </Dialog>
  );
}
