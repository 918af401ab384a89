import { useEffect, useRef } from 'react';
import { paymentAmount, trackPaymentAttempt } from '../../lib/analytics';
import { toast, type ToastInput } from '../ui/use-toast';

/**
 * The payment pages' announcement (docs/product.md §1.3): once per visit, a toast and the analytics
 * event, whose value is the return address's `amount` (docs/product.md §12). An island
 * (web/components/layout/payment-outcome.tsx) that renders nothing itself.
 */
export function PaymentAnnouncement({ announce, outcome }: { announce: ToastInput; outcome: Parameters<typeof trackPaymentAttempt>[0] }) {
  const announced = useRef(false);
  useEffect(() => {
    if (announced.current) return;
    announced.current = true;
    toast(announce);
    trackPaymentAttempt(outcome, paymentAmount(window.location.search));
    // Once per visit (the ref survives StrictMode's second effect run); each page's announcement is fixed.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, by design (above)
  }, []);
  return null;
}
