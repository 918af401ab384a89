import { lazy, Suspense } from 'react';
import { useToasts } from '../ui/use-toast';

// The Radix toast machinery (~9 KB gzip) is only downloaded when the first toast is shown:
// most visits never show one, and the home page has a strict JavaScript budget.
const Toaster = lazy(() => import('../ui/toaster').then((m) => ({ default: m.Toaster })));

/** Mounts the real Toaster once anything calls toast(); it then stays mounted. */
export function LazyToaster() {
  const toasts = useToasts();
  if (toasts.length === 0) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}
