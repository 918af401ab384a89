import { CircleX } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { toast } from '../components/ui/use-toast';
import { firm } from '../content/firm';
import { trackPaymentAttempt } from '../lib/analytics';
import { usePageMeta } from '../lib/page-meta';

/** docs/product.md §1.3: the card-payment page sends the visitor here when they cancel. */
export default function PaymentCancelledPage() {
  usePageMeta({ title: 'Payment Cancelled', description: 'Your payment was cancelled. You can try again at any time.' });
  const announced = useRef(false);

  useEffect(() => {
    if (announced.current) return;
    announced.current = true;
    toast({
      title: 'Payment Cancelled',
      description: 'Your payment was cancelled. Please try again if you wish to complete the payment.',
      variant: 'destructive',
    });
    trackPaymentAttempt('error');
  }, []);

  return (
    <section className="mx-auto flex max-w-2xl flex-col items-center px-4 py-24 text-center">
      <CircleX className="h-16 w-16 text-red-700" aria-hidden="true" />
      <h1 className="mt-6 text-3xl font-bold text-brand-800 sm:text-4xl">Payment Cancelled</h1>
      <p className="mt-4 text-lg text-slate-700">
        Your payment was not completed and you have not been charged. You can try again with the Pay Now link at the top of the page, or call us at{' '}
        <a href={firm.contact.phoneHref} className="font-semibold text-brand-700 underline underline-offset-4">
          {firm.contact.phone}
        </a>{' '}
        if you need help.
      </p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Link to="/" className="inline-flex h-12 items-center justify-center rounded-md bg-brand-700 px-6 font-semibold text-white hover:bg-brand-800">
          Return to Home
        </Link>
        <a
          href={firm.links.payNow}
          target="_blank"
          rel="noopener noreferrer"
          className="inline-flex h-12 items-center justify-center rounded-md border border-slate-300 px-6 font-semibold text-slate-800 hover:bg-slate-50"
        >
          Try Again<span className="sr-only"> (opens in a new tab)</span>
        </a>
      </div>
    </section>
  );
}
