import { Copy, KeyRound, Plus, RefreshCw, Trash2 } from 'lucide-react';
import { useState, type ComponentProps, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { CardContent } from '../../../components/ui/card';
import { Dialog, DialogActions } from '../../../components/ui/dialog';
import { FieldError, Input, Label } from '../../../components/ui/input';
import { Skeleton } from '../../../components/ui/skeleton';
import { toast } from '../../../components/ui/use-toast';
import { BUSY_CALENDAR_INPUT_LIMITS } from '#core/schemas/calendar-sync';
import { ApiError, errorMessage } from '../../../lib/api';
import {
  useAddBusyCalendar,
  useBusyCalendars,
  useFeedStatus,
  useRefreshBusyCalendar,
  useRemoveBusyCalendar,
  useRotateFeed,
  type BusyCalendar,
  type RotatedFeed,
} from '../api/calendar-sync-api';
import { formatDateTime } from '../lib/format';
import { PanelCard } from './admin-page-parts';

/** The field messages of a 400 answer, keyed by field (worker/middleware/validate.ts). */
function fieldErrors(error: unknown): Record<string, string[]> {
  if (!(error instanceof ApiError) || typeof error.body !== 'object' || error.body === null) return {};
  return ((error.body as { fields?: Record<string, string[]> }).fields ?? {}) as Record<string, string[]>;
}

/**
 * The private feed the firm's calendar app subscribes to (docs/product.md §6.4). Only a hash of its
 * secret is stored (docs/decisions/0014), so the address shows once, right after Create or Rotate.
 */
export function CalendarFeedCard() {
  const status = useFeedStatus();
  const rotate = useRotateFeed();
  const [shown, setShown] = useState<RotatedFeed | null>(null);
  const [confirming, setConfirming] = useState(false);
  const active = status.data?.active ?? false;

  function run() {
    setConfirming(false);
    rotate.mutate(undefined, {
      onSuccess: (rotated) => {
        setShown(rotated);
        toast({ title: active ? 'Feed address rotated' : 'Feed address created', description: 'Copy it now: it is shown only once.' });
      },
      onError: (error) => toast({ variant: 'destructive', title: 'Failed to make a feed address', description: errorMessage(error, 'Please try again') }),
    });
  }

  async function copy(text: string) {
    try {
      await navigator.clipboard.writeText(text);
      toast({ title: 'Copied', description: 'Paste it into your calendar app’s “subscribe to calendar” field.' });
    } catch {
      toast({ variant: 'destructive', title: 'Copy failed', description: 'Select the address and copy it by hand.' });
    }
  }

  return (
    <PanelCard
      id="calendar-feed-heading"
      title="Calendar feed"
      intro="A private address your calendar app (Google Calendar, Outlook, Apple Calendar) subscribes to: every requested and confirmed appointment shows there, and cancellations too."
    >
      <CardContent className="space-y-4">
        {status.isPending ? (
          <Skeleton className="h-10 w-full" />
        ) : shown ? (
          <div className="space-y-2 rounded-md border border-emerald-200 bg-emerald-50 p-3">
            <Label htmlFor="calendar-feed-url">Subscription address (shown only now)</Label>
            <div className="flex flex-col gap-2 sm:flex-row">
              <Input id="calendar-feed-url" readOnly value={shown.webcalUrl} onFocus={(e) => e.currentTarget.select()} className="min-w-0 flex-1 font-mono text-xs" />
              {/* The page lets long words wrap anywhere; a button label must not. */}
              <Button icon={Copy} type="button" variant="outline" className="shrink-0 whitespace-nowrap [overflow-wrap:normal]" onClick={() => copy(shown.webcalUrl)}>
                Copy
              </Button>
            </div>
            <p className="text-sm text-slate-700">
              Or open it in your calendar app:{' '}
              <a href={shown.webcalUrl} className="break-all text-brand-700 underline">
                subscribe with webcal://
              </a>
              . Anyone with this address sees your appointments: keep it private.
            </p>
          </div>
        ) : (
          <p className="text-sm text-slate-700" data-testid="calendar-feed-status">
            {active
              ? `A feed address is active (made ${formatDateTime(status.data?.createdAt)}). For your privacy it is not shown again; rotate it to get a new one.`
              : 'No feed address yet.'}
          </p>
        )}
        <Button icon={KeyRound} type="button" variant={active ? 'outline' : 'primary'} disabled={rotate.isPending} onClick={() => (active ? setConfirming(true) : run())}>
          {rotate.isPending ? 'Working...' : active ? 'Rotate address' : 'Create feed address'}
        </Button>
      </CardContent>
      <Dialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Rotate the feed address?"
        description="The current address stops working at once: every calendar subscribed to it must subscribe to the new one."
      >
        <DialogActions cancel="Keep it" onCancel={() => setConfirming(false)}>
          <Button variant="destructive" onClick={run}>
            Rotate address
          </Button>
        </DialogActions>
      </Dialog>
    </PanelCard>
  );
}

/** One field of the form adding a busy calendar: its label, the input and its field message. */
function CalendarField({ id, label, error, onChange, ...input }: Omit<ComponentProps<typeof Input>, 'id' | 'onChange'> & { id: string; label: string; error?: string; onChange: (value: string) => void }) {
  return (
    <div>
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        {...input}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

/** The firm's busy calendars: each one's busy times close the overlapping slots (docs/product.md §6.4). */
export function BusyCalendarsCard() {
  const calendars = useBusyCalendars();
  const add = useAddBusyCalendar();
  const [label, setLabel] = useState('');
  const [url, setUrl] = useState('');
  const [errors, setErrors] = useState<Record<string, string[]>>({});

  function submit(event: FormEvent) {
    event.preventDefault();
    setErrors({});
    add.mutate(
      { label, url },
      {
        onSuccess: (calendar) => {
          setLabel('');
          setUrl('');
          if (calendar.lastError) toast({ variant: 'destructive', title: 'Calendar added, but it could not be read', description: calendar.lastError });
          else toast({ title: 'Calendar added', description: `${calendar.busyCount} busy time${calendar.busyCount === 1 ? '' : 's'} now close slots.` });
        },
        onError: (error) => {
          setErrors(fieldErrors(error));
          toast({ variant: 'destructive', title: 'Failed to add the calendar', description: errorMessage(error, 'Please try again') });
        },
      },
    );
  }

  return (
    <PanelCard
      id="busy-calendars-heading"
      title="Busy calendars"
      intro="Paste the secret iCal address of your own calendar (Google: Settings, “Secret address in iCal format”; Outlook: Publish calendar, ICS). Its busy times close the slots they overlap; it is checked every 15 minutes."
    >
      <CardContent className="space-y-6">
        <form onSubmit={submit} className="grid gap-3 sm:grid-cols-[12rem_1fr_auto] sm:items-start" noValidate>
          <CalendarField id="busy-calendar-label" label="Label" value={label} maxLength={BUSY_CALENDAR_INPUT_LIMITS.label} placeholder="e.g. Dana’s Google" error={errors.label?.[0]} onChange={setLabel} />
          <CalendarField
            id="busy-calendar-url"
            label="iCal address"
            type="url"
            inputMode="url"
            autoComplete="off"
            value={url}
            maxLength={BUSY_CALENDAR_INPUT_LIMITS.url}
            placeholder="https://calendar.google.com/calendar/ical/…/basic.ics"
            error={errors.url?.[0]}
            onChange={setUrl}
          />
          <div className="sm:pt-6">
            <Button icon={Plus} type="submit" disabled={add.isPending} className="w-full sm:w-auto">{add.isPending ? 'Adding...' : 'Add'}</Button>
          </div>
        </form>
        {calendars.isPending ? (
          <Skeleton className="h-16 w-full" />
        ) : calendars.isError ? (
          <p role="alert" className="text-sm text-red-800">
            Failed to load the busy calendars: {errorMessage(calendars.error, 'Please try again.')}
          </p>
        ) : calendars.data.calendars.length === 0 ? (
          <p className="text-sm text-slate-600">No busy calendars yet.</p>
        ) : (
          <ul className="divide-y divide-slate-100 rounded-md border border-slate-200" aria-label="Busy calendars">
            {calendars.data.calendars.map((calendar) => (
              <BusyCalendarRow key={calendar.id} calendar={calendar} />
            ))}
          </ul>
        )}
      </CardContent>
    </PanelCard>
  );
}

function BusyCalendarRow({ calendar: c }: { calendar: BusyCalendar }) {
  const refresh = useRefreshBusyCalendar();
  const remove = useRemoveBusyCalendar();
  const runRefresh = () =>
    refresh.mutate(c.id, {
      onSuccess: (updated) =>
        updated.lastError
          ? toast({ variant: 'destructive', title: 'The calendar could not be read', description: updated.lastError })
          : toast({ title: 'Calendar refreshed', description: `${updated.busyCount} busy time${updated.busyCount === 1 ? '' : 's'}.` }),
      onError: (error) => toast({ variant: 'destructive', title: 'Failed to refresh', description: errorMessage(error, 'Please try again') }),
    });
  const runRemove = () =>
    remove.mutate(c.id, {
      onSuccess: () => toast({ title: 'Calendar removed', description: `${c.label} no longer closes slots.` }),
      onError: (error) => toast({ variant: 'destructive', title: 'Failed to remove', description: errorMessage(error, 'Please try again') }),
    });

  return (
    <li className="flex flex-wrap items-start justify-between gap-3 p-3" data-testid="busy-calendar">
      <div className="min-w-0 space-y-1 text-sm">
        <p className="font-medium text-slate-900">{c.label}</p>
        <p className="break-all text-slate-600">{c.address}</p>
        <p className="text-slate-700">
          {c.lastSuccessAt ? `Last read ${formatDateTime(c.lastSuccessAt)}: ${c.busyCount} busy time${c.busyCount === 1 ? '' : 's'}.` : 'Not read yet.'}
        </p>
        {c.lastError && (
          <p className="text-red-800" data-testid="busy-calendar-error">
            Error {formatDateTime(c.lastErrorAt)}: {c.lastError}
            {c.lastSuccessAt ? ' (the last good copy is still used)' : ''}
          </p>
        )}
      </div>
      <div className="flex gap-2">
        <Button icon={RefreshCw} variant="outline" size="sm" disabled={refresh.isPending} aria-label={`Refresh ${c.label}`} onClick={runRefresh}>
          {refresh.isPending ? 'Refreshing...' : 'Refresh'}
        </Button>
        <Button icon={Trash2} variant="outline" size="sm" disabled={remove.isPending} aria-label={`Remove ${c.label}`} onClick={runRemove}>Remove</Button>
      </div>
    </li>
  );
}
