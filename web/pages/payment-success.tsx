import { CircleCheck } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { toast } from '../components/ui/use-toast';
import { firm } from '../content/firm';
import { trackPaymentAttempt } from '../lib/analytics';
import { usePageMeta } from '../lib/page-meta';

/** docs/product.md §1.3: the card-payment page sends the visitor here after paying. */
export default function PaymentSuccessPage() {
  usePageMeta({ title: 'Payment Successful', description: `Thank you for your payment to ${firm.name}.` });
  const announced = useRef(false);

  useEffect(() => {
    if (announced.current) return;
    announced.current = true;
    toast({ title: 'Payment Successful', description: 'Thank you for your payment!' });
    trackPaymentAttempt('success');
  }, []);

  return (
    <section className="mx-auto flex max-w-2xl flex-col items-center px-4 py-24 text-center">
      <CircleCheck className="h-16 w-16 text-green-700" aria-hidden="true" />
      <h1 className="mt-6 text-3xl font-bold text-brand-800 sm:text-4xl">Payment Successful</h1>
      <p className="mt-4 text-lg text-slate-700">
        Thank you for your payment! A receipt is on its way to your e-mail. If you have any questions about your invoice, call us at{' '}
        <a href={firm.contact.phoneHref} className="font-semibold text-brand-700 underline underline-offset-4">
          {firm.contact.phone}
        </a>
        .
      </p>
      <Link to="/" className="mt-8 inline-flex h-12 items-center justify-center rounded-md bg-brand-700 px-6 font-semibold text-white hover:bg-brand-800">
        Return to Home
      </Link>
    </section>
  );
}
