import { CircleX } from 'lucide-react';
import { NewTabLink } from '../components/layout/page-parts';
import { FirmPhoneLink, PaymentOutcome } from '../components/layout/payment-outcome';
import { useContent } from '../lib/content';
import { usePageMeta } from '../lib/page-meta';

/** docs/product.md §1.3: the card-payment page sends the visitor here when they cancel. */
export default function PaymentCancelledPage() {
  const { firm } = useContent();
  usePageMeta({ title: 'Payment Cancelled', description: 'Your payment was cancelled. You can try again at any time.' });
  return (
    <PaymentOutcome
      icon={CircleX}
      iconClassName="text-red-700"
      title="Payment Cancelled"
      announce={{
        title: 'Payment Cancelled',
        description: 'Your payment was cancelled. Please try again if you wish to complete the payment.',
        variant: 'destructive',
      }}
      outcome="error"
      actions={
        <NewTabLink
          href={firm.links.payNow}
          className="inline-flex h-12 items-center justify-center rounded-md border border-slate-300 px-6 font-semibold text-slate-800 hover:bg-slate-50"
        >
          Try Again
        </NewTabLink>
      }
    >
      Your payment was not completed and you have not been charged. You can try again with the Pay Now link at the top of the page, or call us at{' '}
      <FirmPhoneLink /> if you need help.
    </PaymentOutcome>
  );
}
