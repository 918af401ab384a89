import { looksLikeSensitiveNumber } from '#core/sensitive-numbers';
import { NewTabLink } from '../layout/page-parts';

/**
 * docs/product.md §2 and §4: while a visitor's text looks like a Social Security or account number
 * (core/sensitive-numbers.ts), the field it is typed in says so right under it, before anything is
 * sent, and points to the client portal. Sending stays possible (it may be a phone number after
 * all); the notice goes once the number is gone.
 *
 * `noticeProps(id, text, props)` gives the field its ARIA ties: the field's own (an error's) plus
 * this notice's while it shows. The notice's live region (aria-live, not a status role: the chat has its own status) is always in the page, so a screen reader
 * hears it politely the moment it appears.
 */
export function noticeProps<P extends { 'aria-describedby'?: string }>(id: string, text: string, props: P = {} as P): P {
  if (!looksLikeSensitiveNumber(text)) return props;
  return { ...props, 'aria-describedby': props['aria-describedby'] ? `${props['aria-describedby']} ${id}` : id };
}

export function SensitiveNumberNotice({ id, text, portal, className = '' }: { id: string; text: string; portal: string; className?: string }) {
  const shown = looksLikeSensitiveNumber(text);
  return (
    <div id={id} aria-live="polite" className={shown ? `mt-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-amber-900 ${className}` : undefined}>
      {shown && (
        <>
          This looks like a Social Security or account number. Please don&apos;t send it here: upload it through our{' '}
          <NewTabLink href={portal} className="font-semibold underline underline-offset-2 hover:no-underline">
            secure client portal
          </NewTabLink>
          .
        </>
      )}
    </div>
  );
}
