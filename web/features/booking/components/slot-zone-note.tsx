import { firm } from '#core/content/firm';
import { timeZoneAbbreviation, timeZoneLabel, visitorClockTime } from '#core/firm-time';

/** Minutes after midnight of a slot label ('1:00 PM' -> 780); kept here so the form does not load zod for it. */
const minutesOf = (slot: string) => {
  const [, h, m, meridiem] = /^(\d{1,2}):(\d{2}) (AM|PM)$/.exec(slot) ?? [];
  return h === undefined ? null : ((Number(h) % 12) + (meridiem === 'PM' ? 12 : 0)) * 60 + Number(m);
};

/** The browser's own zone (undefined where Intl cannot say). */
const visitorZone = () => {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
};

/**
 * Beside the time list (docs/product.md §3, §6.4): the slots are the firm's, in its zone, so the
 * zone is named ("All times are Eastern Time (ET)"), and a chosen slot is also given in the
 * visitor's own time when their browser's zone reads it differently ("10:00 AM ET (7:00 AM your
 * time)"). A display only: the slot values sent and stored stay the booking form's labels.
 */
export function SlotZoneNote({ id, date, slot }: { id: string; date: string | undefined; slot: string }) {
  const short = timeZoneAbbreviation(firm.timeZone);
  const zone = visitorZone();
  const minutes = minutesOf(slot);
  const local = date && minutes !== null && zone ? visitorClockTime(date, minutes, firm.timeZone, zone) : null;
  return (
    <p id={id} className="mt-1 text-sm text-slate-600" data-testid="slot-zone-note">
      All times are {timeZoneLabel(firm.timeZone)} ({short}).
      {local && (
        <>
          {' '}
          <span className="font-medium text-slate-800">
            {slot} {short} ({local} your time)
          </span>
        </>
      )}
    </p>
  );
}
