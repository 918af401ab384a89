import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Button } from '../components/ui/button';
import { useContent } from '../lib/content';
import { cancelAppointment, linkFailureText, type ManagedAppointment } from '../features/appointment-links/api';
import { AppointmentSummary, CheckingLink, HomeLink, LinkPage, RefusedLink, useManagedLink } from '../features/appointment-links/components/link-page';
import { ApiError } from '../lib/api';
import { linkToken } from '../lib/link-token';
import { usePageMeta } from '../lib/page-meta';

/**
 * The Cancel link of a booking e-mail (docs/product.md §3). Opening it only shows the appointment
 * (mail scanners follow links); the button cancels.
 */
export default function AppointmentCancelPage() {
  const { firm } = useContent();
  usePageMeta({ title: 'Cancel Your Appointment', description: `Cancel your appointment with ${firm.name}.` });
  const [params] = useSearchParams();
  const token = linkToken(params);
  const [link, setLink] = useManagedLink(token, 'cancel');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState('');
  const [cancelled, setCancelled] = useState<ManagedAppointment | null>(null);

  async function cancel() {
    setPending(true);
    setError('');
    try {
      const result = await cancelAppointment(token);
      setCancelled(result.appointment);
    } catch (failure) {
      const message = linkFailureText(failure, 'We could not cancel your appointment. Please try again or call us.');
      // A link that stopped working meanwhile (already cancelled, changed): say so on the page.
      if (failure instanceof ApiError && (failure.status === 400 || failure.status === 410)) setLink({ kind: 'refused', message });
      else setError(message);
    } finally {
      setPending(false);
    }
  }

  if (cancelled) {
    return (
      <LinkPage icon="done" title="Your appointment is cancelled">
        <p role="status">
          We have cancelled your {cancelled.serviceType} appointment on {cancelled.when} and e-mailed you a confirmation. The time is free for
          someone else.
        </p>
        <div className="mt-8 flex flex-col items-center justify-center gap-3 sm:flex-row">
          <Button asChild size="lg">
            <Link to="/schedule">Book another time</Link>
          </Button>
          <HomeLink />
        </div>
      </LinkPage>
    );
  }
  if (link.kind === 'checking') return <CheckingLink icon="cancel" title="Cancel Your Appointment" />;
  if (link.kind === 'refused') return <RefusedLink message={link.message} />;
  return (
    <LinkPage icon="cancel" title="Cancel Your Appointment?">
      <p>Press the button to cancel this appointment. We will e-mail you a confirmation and free the time for someone else.</p>
      <AppointmentSummary appointment={link.appointment} />
      {error && (
        <p role="alert" className="mx-auto mt-4 max-w-md text-base text-red-700">
          {error}
        </p>
      )}
      <div className="mt-8 flex flex-col items-center justify-center gap-3 sm:flex-row">
        <Button variant="destructive" size="lg" className="font-semibold" onClick={cancel} disabled={pending}>
          {pending ? 'Cancelling...' : 'Cancel appointment'}
        </Button>
        <HomeLink label="Keep my appointment" />
      </div>
    </LinkPage>
  );
}
