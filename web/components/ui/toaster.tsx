import { X } from 'lucide-react';
import { Toast } from 'radix-ui';
import { dismissToast, useToasts } from './use-toast';

/** docs/product.md §10: Radix toasts, 5000 ms auto-dismiss, swipe right 50 px, F8 focuses the viewport. */
export function Toaster() {
  const toasts = useToasts();
  return (
    <Toast.Provider duration={5000} swipeDirection="right" swipeThreshold={50}>
      {toasts.map((t) => (
        <Toast.Root
          key={t.id}
          open={t.open}
          onOpenChange={(open) => !open && dismissToast(t.id)}
          data-variant={t.variant ?? 'default'}
          className={
            'group pointer-events-auto relative flex w-full items-start justify-between gap-3 overflow-hidden rounded-md border p-4 pr-8 shadow-lg ' +
            'data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)] data-[swipe=end]:translate-x-[var(--radix-toast-swipe-end-x)] data-[state=closed]:opacity-0 transition-all ' +
            (t.variant === 'destructive' ? 'border-red-700 bg-red-700 text-white' : 'border-slate-200 bg-white text-slate-900')
          }
        >
          <div className="grid gap-1">
            {t.title && <Toast.Title className="text-sm font-semibold">{t.title}</Toast.Title>}
            {t.description && <Toast.Description className="text-sm opacity-90">{t.description}</Toast.Description>}
          </div>
          {t.action && (
            <Toast.Action altText={t.action.label} asChild>
              <button type="button" onClick={t.action.onClick} className="rounded border px-3 py-1 text-sm font-medium">
                {t.action.label}
              </button>
            </Toast.Action>
          )}
          <Toast.Close aria-label="Close" className="absolute right-2 top-2 rounded p-1 opacity-70 hover:opacity-100">
            <X className="h-4 w-4" aria-hidden="true" />
          </Toast.Close>
        </Toast.Root>
      ))}
      {/* Only the toasts themselves take clicks (pointer-events-auto above): the viewport's empty
          padding never sits over a control. */}
      <Toast.Viewport
        hotkey={['F8']}
        className="pointer-events-none fixed top-0 z-[100] flex max-h-screen w-full flex-col-reverse p-4 sm:bottom-0 sm:right-0 sm:top-auto sm:flex-col md:max-w-[420px]"
      />
    </Toast.Provider>
  );
}
