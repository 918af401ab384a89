import { CircleCheck } from 'lucide-react';
import { FirmPhoneLink, PaymentOutcome } from '../components/layout/payment-outcome';
import { useContent } from '../lib/content';
import { usePageMeta } from '../lib/page-meta';

/** docs/product.md §1.3: the card-payment page sends the visitor here after paying. */
export default function PaymentSuccessPage() {
  const { firm } = useContent();
  usePageMeta({ title: 'Payment Successful', description: `Thank you for your payment to ${firm.name}.` });
  return (
    <PaymentOutcome
      icon={CircleCheck}
      iconClassName="text-green-700"
      title="Payment Successful"
      announce={{ title: 'Payment Successful', description: 'Thank you for your payment!' }}
      outcome="success"
    >
      Thank you for your payment! A receipt is on its way to your e-mail. If you have any questions about your invoice, call us at{' '}
      <FirmPhoneLink />.
    </PaymentOutcome>
  );
}
