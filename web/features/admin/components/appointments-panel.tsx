import { CalendarCheck, CalendarX } from 'lucide-react';
import { useState } from 'react';
import { Badge, type BadgeVariant } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardHeader } from '../../../components/ui/card';
import { Dialog } from '../../../components/ui/dialog';
import { Skeleton } from '../../../components/ui/skeleton';
import { toast } from '../../../components/ui/use-toast';
import { errorMessage } from '../../../lib/api';
import { useUpdateAppointmentStatus, type Appointment } from '../api/admin-api';
import { firmToday, formatCalendarDay } from '../lib/format';

const statusLook: Record<Appointment['status'], { label: string; variant: BadgeVariant }> = {
  requested: { label: 'Requested', variant: 'warning' },
  confirmed: { label: 'Confirmed', variant: 'success' },
  cancelled: { label: 'Cancelled', variant: 'secondary' },
};

/** Consultation requests, upcoming first (the API's order); confirm or cancel e-mails the visitor. */
export function AppointmentsPanel({ appointments, isPending, error }: { appointments: Appointment[] | undefined; isPending: boolean; error: Error | null }) {
  const today = firmToday();
  const upcoming = appointments?.filter((a) => a.date >= today) ?? [];
  const past = appointments?.filter((a) => a.date < today) ?? [];
  const awaiting = upcoming.filter((a) => a.status === 'requested').length;

  return (
    <section aria-labelledby="appointments-heading" className="space-y-4">
      <div className="flex flex-wrap items-center gap-3">
        <h2 id="appointments-heading" className="text-xl font-semibold text-brand-800">
          Appointments
        </h2>
        {appointments && <Badge variant={awaiting > 0 ? 'warning' : 'secondary'}>{awaiting} awaiting confirmation</Badge>}
      </div>
      {isPending ? (
        <Skeleton className="h-24 w-full" />
      ) : error ? (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-4 text-sm text-red-800">
          Failed to load appointments: {errorMessage(error, 'Please try again.')}
        </p>
      ) : upcoming.length === 0 && past.length === 0 ? (
        <Card>
          <CardContent className="py-8 text-center text-sm text-slate-600">No appointment requests yet.</CardContent>
        </Card>
      ) : (
        <>
          {upcoming.length === 0 ? (
            <p className="text-sm text-slate-600">No upcoming appointments.</p>
          ) : (
            <ul className="grid gap-3 md:grid-cols-2 lg:grid-cols-1" aria-label="Upcoming appointments">
              {upcoming.map((a) => (
                <li key={a.id}>
                  <AppointmentCard appointment={a} actionable />
                </li>
              ))}
            </ul>
          )}
          {past.length > 0 && (
            <details className="rounded-md border border-slate-200 p-3">
              <summary className="cursor-pointer text-sm font-medium text-slate-700">Past appointments ({past.length})</summary>
              <ul className="mt-3 grid gap-3 md:grid-cols-2 lg:grid-cols-1" aria-label="Past appointments">
                {past.map((a) => (
                  <li key={a.id}>
                    <AppointmentCard appointment={a} actionable={false} />
                  </li>
                ))}
              </ul>
            </details>
          )}
        </>
      )}
    </section>
  );
}

function AppointmentCard({ appointment: a, actionable }: { appointment: Appointment; actionable: boolean }) {
  const update = useUpdateAppointmentStatus();
  const [confirmCancel, setConfirmCancel] = useState(false);
  const look = statusLook[a.status];

  function setStatus(status: 'confirmed' | 'cancelled') {
    setConfirmCancel(false);
    update.mutate(
      { id: a.id, status },
      {
        onSuccess: () =>
          toast({
            title: status === 'confirmed' ? 'Appointment confirmed' : 'Appointment cancelled',
            description: `${a.name} has been notified by e-mail.`,
          }),
        onError: (error) => toast({ variant: 'destructive', title: 'Failed to update appointment', description: errorMessage(error, 'Please try again') }),
      },
    );
  }

  return (
    <Card data-testid="appointment-card" className="h-full">
      <CardHeader className="pb-2">
        <div className="flex flex-wrap items-start justify-between gap-2">
          <div>
            <h3 className="font-semibold text-slate-900">{a.serviceType}</h3>
            <p className="text-sm font-medium text-brand-700">
              {formatCalendarDay(a.date)} · {a.timeSlot}
            </p>
          </div>
          <Badge variant={look.variant}>{look.label}</Badge>
        </div>
      </CardHeader>
      <CardContent className="space-y-3 text-sm">
        <div className="text-slate-700">
          <p className="font-medium text-slate-900">{a.name}</p>
          <p>
            <a className="break-all text-brand-700 underline" href={`mailto:${a.email}`}>
              {a.email}
            </a>
          </p>
          {a.phone && (
            <p>
              <a className="text-brand-700 underline" href={`tel:${a.phone.replace(/[^\d+]/g, '')}`}>
                {a.phone}
              </a>
            </p>
          )}
        </div>
        {a.notes && <p className="whitespace-pre-wrap break-words rounded bg-slate-50 p-2 text-slate-700">{a.notes}</p>}
        {actionable && a.status !== 'cancelled' && (
          <div className="flex flex-wrap gap-2">
            {a.status === 'requested' && (
              <Button size="sm" onClick={() => setStatus('confirmed')} disabled={update.isPending}>
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
        description={`${a.serviceType} on ${formatCalendarDay(a.date)} at ${a.timeSlot} for ${a.name}. They will be told by e-mail and the slot becomes free again.`}
      >
        <div className="flex justify-end gap-2">
          <Button variant="outline" onClick={() => setConfirmCancel(false)}>
            Keep it
          </Button>
          <Button variant="destructive" onClick={() => setStatus('cancelled')}>
            Cancel appointment
          </Button>
        </div>
      </Dialog>
    </Card>
  );
}
