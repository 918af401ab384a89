import { Button } from '../../components/ui/button';
import { firm } from '#core/content/firm';
import { zonedDateTime } from '#core/firm-time';
import type { Conflict } from './content-api';

// What the screens say when the API refuses a write made on content that changed meanwhile (409,
// docs/product.md §6.6): which version or draft is newer, who made it and when.

/** A time of the content's history as the admin reads it ("Nov 26, 2026, 4:12 PM ET"): the firm's zone and its label, as every back-office time (core/firm-time.ts zonedDateTime). */
export function formatWhen(iso: string | null): string {
  const at = iso ? new Date(iso) : null;
  if (!at) return 'an unknown time';
  return Number.isNaN(at.getTime()) ? iso! : zonedDateTime(at, firm.timeZone);
}

export function conflictSentence(conflict: Conflict): string {
  if (conflict.kind === 'published') {
    return conflict.publishedBy
      ? `Version ${conflict.version} was published by ${conflict.publishedBy} on ${formatWhen(conflict.publishedAt)} while you were editing.`
      : `Version ${conflict.version} (the default content) is now current.`;
  }
  return conflict.updatedBy
    ? `The draft was saved by ${conflict.updatedBy} on ${formatWhen(conflict.updatedAt)} (another tab or another admin) while you were editing.`
    : 'The draft was published or replaced (another tab or another admin) while you were editing.';
}

/** The 409 alert: what changed, that nothing was saved, and the admin's two ways on. */
export function ConflictAlert({ conflict, keepLabel, onKeep, onReload, busy }: { conflict: Conflict; keepLabel?: string; onKeep?: () => void; onReload: () => void; busy: boolean }) {
  return (
    <div role="alert" className="space-y-3 rounded-md border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950" data-testid="content-conflict">
      <p className="font-semibold">Not saved: the content changed since you opened it.</p>
      <p>{conflictSentence(conflict)}</p>
      <p>
        {onKeep
          ? 'Your edits are kept in the form below, not saved. Apply them to the latest content (the fields you changed take your text, every other field the latest), or discard them and reload.'
          : 'Reload to see the latest content.'}
      </p>
      <div className="flex flex-wrap gap-2">
        {onKeep && (
          <Button size="sm" disabled={busy} onClick={onKeep}>
            {keepLabel}
          </Button>
        )}
        <Button size="sm" variant="outline" disabled={busy} onClick={onReload}>
          {onKeep ? 'Discard my edits and reload' : 'Reload'}
        </Button>
      </div>
    </div>
  );
}
