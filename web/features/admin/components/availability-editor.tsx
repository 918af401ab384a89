import { CalendarOff, CalendarX2, Save, Undo2 } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import * as z from 'zod/v4';
import { Link } from 'react-router';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { CardContent } from '../../../components/ui/card';
import { FieldError, Input, Label } from '../../../components/ui/input';
import { Skeleton } from '../../../components/ui/skeleton';
import { toast } from '../../../components/ui/use-toast';
import { bookingTimeSlots } from '#core/content/booking';
import { ApiError, errorMessage } from '../../../lib/api';
import { AVAILABILITY_LIMITS, blockedDateSchema } from '#core/schemas/availability';
import { useSchemaForm } from '../../../lib/use-schema-form';
import { useBlockDate, useSaveWeekdays, useUnblockDate, type AdminAvailability, type BlockedDate, type WeekdayOffer } from '../api/availability-api';
import { firmToday, formatCalendarDay, formatSlot } from '../lib/format';
import { PanelCard } from './admin-page-parts';

const weekdays = [
  { key: 'monday', short: 'Mon', name: 'Monday' },
  { key: 'tuesday', short: 'Tue', name: 'Tuesday' },
  { key: 'wednesday', short: 'Wed', name: 'Wednesday' },
  { key: 'thursday', short: 'Thu', name: 'Thursday' },
  { key: 'friday', short: 'Fri', name: 'Friday' },
] as const;

type Offer = Record<(typeof weekdays)[number]['key'], Set<string>>;

const toOffer = (w: AdminAvailability['weekdays']): Offer =>
  Object.fromEntries(weekdays.map(({ key }) => [key, new Set<string>(w[key])])) as Offer;
const sameOffer = (a: Offer, b: Offer) => weekdays.every(({ key }) => a[key].size === b[key].size && [...a[key]].every((s) => b[key].has(s)));
const toPayload = (offer: Offer): WeekdayOffer =>
  Object.fromEntries(weekdays.map(({ key }) => [key, bookingTimeSlots.filter((s) => offer[key].has(s))])) as WeekdayOffer;

/** The field messages of a 400 answer, keyed by field (worker/middleware/validate.ts). */
function fieldErrors(error: unknown): Record<string, string[]> {
  if (!(error instanceof ApiError) || typeof error.body !== 'object' || error.body === null) return {};
  return ((error.body as { fields?: Record<string, string[]> }).fields ?? {}) as Record<string, string[]>;
}

/**
 * The weekly offer as a checkbox grid: one column per weekday, one row per slot; Save replaces the
 * whole week (docs/product.md §6.4). Weekends are always closed and not shown.
 */
export function WeekdaySlotsCard({ availability }: { availability: AdminAvailability | undefined }) {
  const save = useSaveWeekdays();
  const [offer, setOffer] = useState<Offer | null>(null);
  const saved = availability && toOffer(availability.weekdays);
  // Until the admin changes something, the grid follows what the server says.
  const current = offer ?? saved;
  const dirty = !!(offer && saved && !sameOffer(offer, saved));

  function toggle(day: keyof Offer, slot: string, on: boolean) {
    if (!current) return;
    const next = { ...current, [day]: new Set(current[day]) };
    if (on) next[day].add(slot);
    else next[day].delete(slot);
    setOffer(next);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!current) return;
    save.mutate(toPayload(current), {
      onSuccess: () => {
        setOffer(null);
        toast({ title: 'Weekly hours saved', description: 'Visitors can now book only the slots you offer.' });
      },
      onError: (error) => {
        const first = Object.values(fieldErrors(error))[0]?.[0];
        toast({ variant: 'destructive', title: 'Failed to save weekly hours', description: first ?? errorMessage(error, 'Please try again') });
      },
    });
  }

  return (
    <PanelCard id="weekly-hours-heading" title="Weekly hours" intro="The slots visitors can book on each weekday. Weekends are always closed.">
      <CardContent>
        {!current ? (
          <Skeleton className="h-64 w-full" />
        ) : (
          <form onSubmit={submit} className="space-y-4">
            <table className="w-full table-fixed border-collapse text-sm" data-testid="weekday-grid">
              <caption className="sr-only">Slots offered per weekday</caption>
              <thead>
                <tr>
                  <th scope="col" className="w-20 py-2 text-left font-medium text-slate-700 sm:w-28">
                    Time
                  </th>
                  {weekdays.map((d) => (
                    <th key={d.key} scope="col" className="py-2 text-center font-medium text-slate-700">
                      <abbr title={d.name} className="no-underline sm:hidden">
                        {d.short}
                      </abbr>
                      <span className="hidden sm:inline">{d.name}</span>
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {bookingTimeSlots.map((slot) => (
                  <tr key={slot} className="border-t border-slate-100">
                    <th scope="row" className="whitespace-nowrap py-1 text-left font-normal text-slate-800">
                      {slot}
                    </th>
                    {weekdays.map((d) => (
                      <td key={d.key} className="py-1 text-center">
                        {/* A 44 px target around the box, for fingers at 390 px. */}
                        <label className="inline-flex h-11 w-11 cursor-pointer items-center justify-center rounded-md hover:bg-slate-50">
                          <input
                            type="checkbox"
                            className="h-5 w-5 cursor-pointer accent-brand-700"
                            aria-label={`${d.name} ${slot}`}
                            checked={current[d.key].has(slot)}
                            onChange={(e) => toggle(d.key, slot, e.target.checked)}
                            disabled={save.isPending}
                          />
                        </label>
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
            <div className="flex flex-wrap items-center gap-2">
              <Button icon={Save} type="submit" disabled={!dirty || save.isPending}>{save.isPending ? 'Saving...' : 'Save'}</Button>
              <Button icon={Undo2} type="button" variant="outline" disabled={!dirty || save.isPending} onClick={() => setOffer(null)}>Undo changes</Button>
              {dirty && <span className="text-sm text-amber-800">Unsaved changes</span>}
            </div>
          </form>
        )}
      </CardContent>
    </PanelCard>
  );
}

/** POST /api/admin/blocked-dates's own schema, with a message of its own for a date not chosen yet. */
const blockDateFormSchema = blockedDateSchema.extend({ date: z.string().min(1, 'Please choose a date').pipe(blockedDateSchema.shape.date) });

const statusLook = { requested: 'Requested', confirmed: 'Confirmed', cancelled: 'Cancelled' } as const;

/**
 * Closed days: block a date (with an optional reason visitors see), the list of blocked dates with
 * Unblock, and the bookings still on them, which blocking keeps (docs/product.md §6.4).
 */
export function BlockedDatesCard({ availability }: { availability: AdminAvailability | undefined }) {
  const blockDate = useBlockDate();
  const today = firmToday();
  const [showPast, setShowPast] = useState(false);
  const upcoming = availability?.blockedDates.filter((b) => b.date >= today) ?? [];
  const past = availability?.blockedDates.filter((b) => b.date < today).reverse() ?? [];
  const form = useSchemaForm({
    id: 'block',
    initial: { date: '', reason: '' },
    schema: blockDateFormSchema,
    submit: async ({ date, reason }) => {
      const blocked = await blockDate.mutateAsync({ date, reason: reason ?? undefined });
      form.reset();
      const kept = blocked.appointments.length;
      toast({
        title: 'Date blocked',
        description:
          kept > 0
            ? `${formatCalendarDay(blocked.date)} is closed. ${kept} existing booking${kept === 1 ? ' is' : 's are'} kept: see below.`
            : `${formatCalendarDay(blocked.date)} is closed to new bookings.`,
      });
    },
    onError: (error) => {
      toast({ variant: 'destructive', title: 'Failed to block the date', description: errorMessage(error, 'Please try again') });
    },
  });

  return (
    <PanelCard
      id="closed-days-heading"
      title="Closed days"
      intro={
        <>
          Holidays, training days: no new bookings on a blocked date. Bookings already on it are kept and listed here; cancel them from the{' '}
          <Link to="/admin" className="text-brand-700 underline">
            Admin Panel
          </Link>{' '}
          if needed.
        </>
      }
    >
      <CardContent className="space-y-6">
        <form ref={form.ref} onSubmit={form.handleSubmit} className="grid gap-3 sm:grid-cols-[12rem_1fr_auto] sm:items-start" noValidate>
          <div>
            <Label htmlFor="block-date">Date</Label>
            <Input
              id="block-date"
              type="date"
              min={today}
              {...form.field('date')}
              {...form.described('date')}
            />
            <FieldError id="block-date-error" message={form.errors.date} />
          </div>
          <div>
            <Label htmlFor="block-reason">Reason (optional)</Label>
            <Input
              id="block-reason"
              maxLength={AVAILABILITY_LIMITS.reason}
              placeholder="e.g. Office closed for training"
              {...form.field('reason')}
              {...form.described('reason')}
            />
            <FieldError id="block-reason-error" message={form.errors.reason} />
          </div>
          <div className="sm:pt-6">
            <Button icon={CalendarOff} type="submit" disabled={form.pending} className="w-full sm:w-auto">{form.pending ? 'Blocking...' : 'Block'}</Button>
          </div>
        </form>

        {!availability ? (
          <Skeleton className="h-16 w-full" />
        ) : upcoming.length === 0 ? (
          <p className="text-sm text-slate-600">No upcoming closed days.</p>
        ) : (
          <BlockedList label="Upcoming closed days" list={upcoming} />
        )}
        {past.length > 0 && (
          <div className="space-y-3">
            <Button variant="ghost" size="sm" aria-expanded={showPast} aria-controls="past-closed-days" onClick={() => setShowPast((v) => !v)}>
              {showPast ? 'Hide past closed days' : `Show past closed days (${past.length})`}
            </Button>
            <div id="past-closed-days" hidden={!showPast}>
              {showPast && <BlockedList label="Past closed days" list={past} />}
            </div>
          </div>
        )}
      </CardContent>
    </PanelCard>
  );
}

function BlockedList({ label, list }: { label: string; list: BlockedDate[] }) {
  return (
    <ul className="divide-y divide-slate-100 rounded-md border border-slate-200" aria-label={label}>
      {list.map((b) => (
        <BlockedRow key={b.date} blocked={b} />
      ))}
    </ul>
  );
}

function BlockedRow({ blocked: b }: { blocked: BlockedDate }) {
  const unblock = useUnblockDate();
  const day = formatCalendarDay(b.date);
  const bookingsId = `blocked-${b.date}-bookings`;

  function run() {
    unblock.mutate(b.date, {
      onSuccess: () => toast({ title: 'Date unblocked', description: `${day} is open for bookings again.` }),
      onError: (error) => toast({ variant: 'destructive', title: 'Failed to unblock the date', description: errorMessage(error, 'Please try again') }),
    });
  }

  return (
    <li className="space-y-2 p-3" data-testid="blocked-date" data-date={b.date}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="min-w-0">
          <p className="font-medium text-slate-900">{day}</p>
          {b.reason && <p className="break-words text-sm text-slate-600">{b.reason}</p>}
        </div>
        <Button icon={CalendarX2} variant="outline" size="sm" onClick={run} disabled={unblock.isPending} aria-label={`Unblock ${day}`}>Unblock</Button>
      </div>
      {b.appointments.length > 0 && (
        <div className="rounded-md border border-amber-200 bg-amber-50 p-2 text-sm">
          <p id={bookingsId} className="font-medium text-amber-900">
            {b.appointments.length} booking{b.appointments.length === 1 ? '' : 's'} still on this day
          </p>
          <ul aria-labelledby={bookingsId} className="mt-1 space-y-1">
            {b.appointments.map((a) => (
              <li key={a.id} className="flex flex-wrap items-center gap-2 text-slate-800" data-testid="blocked-date-booking">
                <span className="font-medium">{formatSlot(a.timeSlot)}</span>
                <span className="min-w-0 break-words">{a.name}</span>
                <Badge variant={a.status === 'confirmed' ? 'success' : 'warning'}>{statusLook[a.status]}</Badge>
              </li>
            ))}
          </ul>
        </div>
      )}
    </li>
  );
}
