import { Loader2, X } from 'lucide-react';
import { Dialog as RadixDialog } from 'radix-ui';
import { useRef, type ReactNode } from 'react';
import { errorMessage } from '../../lib/api';
import { Button } from './button';

// Admin-only primitive (the public pages never import it, so visitors never download it).

/**
 * A modal dialog: Radix handles focus trapping, Escape, and aria-labelledby/-describedby. Opened
 * through `open` without a Radix trigger, Radix would have nothing to return focus to: the dialog
 * remembers what had focus when it opened (its opener) and focuses it again on close (WCAG 2.4.3).
 */
export function Dialog({
  open,
  onOpenChange,
  title,
  description,
  children,
  className = '',
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  const opener = useRef<HTMLElement | null>(null);
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-50 bg-slate-900/60" />
        <RadixDialog.Content
          className={`fixed left-1/2 top-1/2 z-50 flex max-h-[90vh] w-[calc(100vw-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 flex-col gap-4 overflow-y-auto rounded-lg border border-slate-200 bg-white p-6 shadow-xl ${className}`}
          {...(description ? {} : { 'aria-describedby': undefined })}
          onOpenAutoFocus={() => {
            // Still the opener's focus here: Radix moves it into the dialog after this event.
            const active = document.activeElement;
            opener.current = active instanceof HTMLElement && active !== document.body ? active : null;
          }}
          onCloseAutoFocus={(event) => {
            const target = opener.current;
            opener.current = null;
            if (target?.isConnected) {
              event.preventDefault();
              target.focus();
            }
          }}
        >
          <div className="pr-8">
            <RadixDialog.Title className="text-lg font-semibold text-brand-800">{title}</RadixDialog.Title>
            {description && <RadixDialog.Description className="mt-1 text-sm text-slate-600">{description}</RadixDialog.Description>}
          </div>
          {children}
          <RadixDialog.Close aria-label="Close" className="absolute right-4 top-4 rounded p-1 text-slate-500 hover:bg-slate-100 hover:text-slate-800">
            <X className="h-4 w-4" aria-hidden="true" />
          </RadixDialog.Close>
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

/**
 * A dialog's buttons, at its end: the one that leaves without doing anything (`cancel`, 'Cancel'
 * unless named otherwise: 'Done' where the dialog only shows something), then the dialog's action
 * (`children`), if it has one.
 */
export function DialogActions({ cancel = 'Cancel', onCancel, children }: { cancel?: string; onCancel: () => void; children?: ReactNode }) {
  return (
    <div className="flex justify-end gap-2">
      <Button variant="outline" onClick={onCancel}>
        {cancel}
      </Button>
      {children}
    </div>
  );
}

/**
 * What a dialog shows while its read is under way (`loading`, announced as a status) or once it
 * failed (the server's message, else `failure`, as an alert); nothing once it has its data.
 */
export function DialogLoadState({ query, loading, failure }: { query: { isPending: boolean; isError: boolean; error: unknown }; loading: string; failure: string }) {
  if (query.isPending) {
    return (
      <p role="status" className="flex items-center gap-2 text-sm text-slate-700">
        <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />
        {loading}
      </p>
    );
  }
  if (query.isError) {
    return (
      <p role="alert" className="text-sm text-red-800">
        {errorMessage(query.error, failure)}
      </p>
    );
  }
  return null;
}
