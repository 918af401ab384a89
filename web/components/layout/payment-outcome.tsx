import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import type { trackPaymentAttempt } from '../../lib/analytics';
import { island } from '../../islands/island';
import { useContent } from '../../lib/content';
import type { ToastInput } from '../ui/use-toast';
import { PaymentAnnouncement } from './payment-announcement';

const AnnouncementIsland = island('payment-announcement', PaymentAnnouncement);

/** The firm's phone number as the link the payment pages print inside their text. */
export function FirmPhoneLink() {
  const { firm } = useContent();
  return (
    <a href={firm.contact.phoneHref} className="font-semibold text-brand-700 underline underline-offset-4">
      {firm.contact.phone}
    </a>
  );
}

/**
 * docs/product.md §1.3: the page the card-payment page returns the visitor to, after paying or
 * cancelling. It announces the outcome once (a toast and the analytics event), then shows an icon, a
 * heading, the explanation and the way on.
 */
export function PaymentOutcome({
  icon: Icon,
  iconClassName,
  title,
  announce,
  outcome,
  children,
  actions,
}: {
  icon: LucideIcon;
  iconClassName: string;
  title: string;
  announce: ToastInput;
  outcome: Parameters<typeof trackPaymentAttempt>[0];
  children: ReactNode;
  actions?: ReactNode;
}) {
  const homeLink = (className: string) => (
    <a href="/" className={`${className}inline-flex h-12 items-center justify-center rounded-md bg-brand-700 px-6 font-semibold text-white hover:bg-brand-800`}>
      Return to Home
    </a>
  );
  return (
    <section className="mx-auto flex max-w-2xl flex-col items-center px-4 py-24 text-center">
      <AnnouncementIsland announce={announce} outcome={outcome} />
      <Icon className={`h-16 w-16 ${iconClassName}`} aria-hidden="true" />
      <h1 className="mt-6 text-3xl font-bold text-brand-800 sm:text-4xl">{title}</h1>
      <p className="mt-4 text-lg text-slate-700">{children}</p>
      {actions ? (
        <div className="mt-8 flex flex-wrap justify-center gap-3">
          {homeLink('')}
          {actions}
        </div>
      ) : (
        homeLink('mt-8 ')
      )}
    </section>
  );
}
