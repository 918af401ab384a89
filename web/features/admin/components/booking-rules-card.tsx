import { Save } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { SubmitButton } from '../../../components/ui/button';
import { CardContent } from '../../../components/ui/card';
import { FieldError, Input, Label } from '../../../components/ui/input';
import { Skeleton } from '../../../components/ui/skeleton';
import { toast } from '../../../components/ui/use-toast';
import { BOOKING_RULE_LIMITS } from '#core/content/booking';
import { ApiError, errorMessage } from '../../../lib/api';
import { useSaveBookingRules, type AdminAvailability, type BookingRulesInput } from '../api/availability-api';
import { formatCalendarDay } from '../lib/format';
import { PanelCard } from './admin-page-parts';

/** The field messages of a 400 answer, by field; a list item's (reopenedHolidays.0) under its list. */
function fieldErrors(error: unknown): Record<string, string[]> {
  if (!(error instanceof ApiError) || typeof error.body !== 'object' || error.body === null) return {};
  const fields = (error.body as { fields?: Record<string, string[]> }).fields ?? {};
  return Object.fromEntries(Object.entries(fields).map(([name, messages]) => [name.split('.')[0], messages]));
}

type Draft = { minimumNoticeHours: string; horizonDays: string; closeFederalHolidays: boolean; reopenedHolidays: string[] };

const toDraft = (rules: AdminAvailability['rules']): Draft => ({
  minimumNoticeHours: String(rules.minimumNoticeHours),
  horizonDays: String(rules.horizonDays),
  closeFederalHolidays: rules.closeFederalHolidays,
  reopenedHolidays: rules.reopenedHolidays,
});

/** A number field's text as sent: a whole number, or the text itself so the server names the mistake. */
const asNumber = (text: string) => (/^\s*-?\d+(\.\d+)?\s*$/.test(text) ? Number(text) : (text as unknown as number));

/** The whole-number rules, in the order of the form. */
const NUMBER_RULES = [
  { name: 'minimumNoticeHours', label: 'Minimum notice (hours)', help: '0 to 720. With 48, a visitor cannot book a time less than two days away.' },
  { name: 'horizonDays', label: 'Booking horizon (days)', help: '1 to 730. How many days ahead a visitor can book.' },
] as const;

/** One whole-number rule: its label, a field within BOOKING_RULE_LIMITS, a line of help and its field message. */
function NumberRule(props: { name: 'minimumNoticeHours' | 'horizonDays'; label: string; help: string; value: string; error?: string; onChange: (value: string) => void }) {
  const { name, error } = props;
  return (
    <div>
      <Label htmlFor={name}>{props.label}</Label>
      <Input
        id={name}
        type="number"
        inputMode="numeric"
        min={BOOKING_RULE_LIMITS[name].min}
        max={BOOKING_RULE_LIMITS[name].max}
        step={1}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${name}-error` : undefined}
      />
      <p className="mt-1 text-xs text-slate-600">{props.help}</p>
      <FieldError id={`${name}-error`} message={error} />
    </div>
  );
}

/**
 * Booking rules (docs/product.md §6.4): minimum notice, booking horizon, and one switch closing
 * every US federal holiday (observed dates), with each upcoming holiday reopenable on its own.
 */
export function BookingRulesCard({ availability }: { availability: AdminAvailability | undefined }) {
  const save = useSaveBookingRules();
  const [draft, setDraft] = useState<Draft | null>(null);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const current = draft ?? (availability && toDraft(availability.rules));

  const change = (next: Partial<Draft>) => {
    if (!current) return;
    setDraft({ ...current, ...next });
    setErrors({});
  };

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!current) return;
    const rules: BookingRulesInput = {
      minimumNoticeHours: asNumber(current.minimumNoticeHours),
      horizonDays: asNumber(current.horizonDays),
      closeFederalHolidays: current.closeFederalHolidays,
      reopenedHolidays: current.reopenedHolidays,
    };
    save.mutate(rules, {
      onSuccess: () => {
        setDraft(null);
        toast({ title: 'Booking rules saved', description: 'The booking calendar follows them from now on.' });
      },
      onError: (error) => {
        const fields = fieldErrors(error);
        setErrors(fields);
        toast({ variant: 'destructive', title: 'Failed to save booking rules', description: Object.values(fields)[0]?.[0] ?? errorMessage(error, 'Please try again') });
      },
    });
  }

  return (
    <PanelCard
      id="booking-rules-heading"
      title="Booking rules"
      intro="How soon and how far ahead visitors can book, and whether federal holidays are closed. Bookings already made are kept."
    >
      <CardContent>
        {!current || !availability ? (
          <Skeleton className="h-40 w-full" />
        ) : (
          <form onSubmit={submit} className="space-y-5" noValidate>
            <div className="grid gap-4 sm:grid-cols-2">
              {NUMBER_RULES.map(({ name, label, help }) => (
                <NumberRule key={name} name={name} label={label} help={help} value={current[name]} error={errors[name]?.[0]} onChange={(value) => change({ [name]: value })} />
              ))}
            </div>
            <fieldset className="space-y-3">
              <legend className="sr-only">Federal holidays</legend>
              <label className="flex min-h-11 cursor-pointer items-center gap-3 text-sm font-medium text-slate-900">
                <input
                  type="checkbox"
                  className="h-5 w-5 cursor-pointer accent-brand-700"
                  checked={current.closeFederalHolidays}
                  onChange={(e) => change({ closeFederalHolidays: e.target.checked })}
                />
                Close every US federal holiday (observed dates)
              </label>
              {current.closeFederalHolidays && (
                <div>
                  <p id="reopen-help" className="text-sm text-slate-700">
                    Closed unless you reopen it:
                  </p>
                  <ul className="mt-2 divide-y divide-slate-100 rounded-md border border-slate-200" aria-describedby="reopen-help">
                    {availability.holidays.map((holiday) => {
                      const reopened = current.reopenedHolidays.includes(holiday.date);
                      return (
                        <li key={holiday.date} className="flex flex-wrap items-center justify-between gap-2 px-3 py-1 text-sm">
                          <span>
                            <span className="font-medium text-slate-900">{holiday.name}</span>{' '}
                            <span className="text-slate-600">{formatCalendarDay(holiday.date)}</span>
                          </span>
                          <label className="inline-flex min-h-11 cursor-pointer items-center gap-2 text-slate-800">
                            <input
                              type="checkbox"
                              className="h-5 w-5 cursor-pointer accent-brand-700"
                              checked={reopened}
                              aria-label={`Open on ${holiday.name}, ${formatCalendarDay(holiday.date)}`}
                              onChange={(e) =>
                                change({
                                  reopenedHolidays: e.target.checked
                                    ? [...current.reopenedHolidays, holiday.date].sort()
                                    : current.reopenedHolidays.filter((date) => date !== holiday.date),
                                })
                              }
                            />
                            Open
                          </label>
                        </li>
                      );
                    })}
                  </ul>
                  <FieldError id="reopenedHolidays-error" message={errors.reopenedHolidays?.[0]} />
                </div>
              )}
            </fieldset>
            <SubmitButton icon={Save} disabled={!draft} pending={save.isPending} busy="Saving...">
              Update booking rules
            </SubmitButton>
          </form>
        )}
      </CardContent>
    </PanelCard>
  );
}
