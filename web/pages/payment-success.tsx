import { usePageMeta } from '../lib/page-meta';

export default function PaymentSuccessPage() {
  usePageMeta({ title: 'Payment Successful', description: 'Thank you for your payment!' });
  return (
    <section className="mx-auto max-w-5xl px-4 py-16 sm:px-6 lg:px-8">
      <h1 className="text-3xl font-bold text-brand-800 sm:text-4xl">Payment Successful</h1>
      <p className="mt-4 text-lg text-slate-700">Thank you for your payment!</p>
    </section>
  );
}
