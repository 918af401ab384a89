import { CalendarX2, CalendarClock, CircleAlert, CircleCheck } from 'lucide-react';
import { useEffect, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { useContent } from '../../../lib/content';
import { fetchManagedAppointment, linkFailureText, type ManagedAppointment, type ManagedLink } from '../api';

export type LinkState =
  | { kind: 'checking' }
  | { kind: 'refused'; message: string }
  | { kind: 'ready'; appointment: ManagedAppointment };

const INVALID = 'This link is not valid. Please use the link in your most recent e-mail from us, or call us.';

/**
 * Reads the appointment a link is for (GET only: opening the page changes nothing) and checks that
 * the link is the page's kind (cancel or reschedule).
 */
export function useManagedLink(token: string, action: ManagedLink['action']) {
  const [state, setState] = useState<LinkState>({ kind: 'checking' });
  useEffect(() => {
    let live = true;
    if (!token) {
      setState({ kind: 'refused', message: INVALID });
      return;
    }
    fetchManagedAppointment(token).then(
      (link) => live && setState(link.action === action ? { kind: 'ready', appointment: link.appointment } : { kind: 'refused', message: INVALID }),
      (error: unknown) => live && setState({ kind: 'refused', message: linkFailureText(error, 'We could not check your link. Please try again.') }),
    );
    return () => {
      live = false;
    };
  }, [token, action]);
  return [state, setState] as const;
}

const icons = { cancel: CalendarX2, reschedule: CalendarClock, done: CircleCheck, refused: CircleAlert };

/** The frame of the two link pages: an icon, a heading, what the page says, and its actions. */
export function LinkPage({ icon, title, children }: { icon: keyof typeof icons; title: string; children: ReactNode }) {
  const Icon = icons[icon];
  return (
    <section className="mx-auto flex max-w-3xl flex-col items-center px-4 py-14 text-center sm:py-20">
      <Icon className={`h-14 w-14 ${icon === 'refused' ? 'text-amber-700' : 'text-brand-700'}`} aria-hidden="true" />
      <h1 className="mt-5 text-3xl font-bold text-brand-800 sm:text-4xl">{title}</h1>
      <div className="mt-4 w-full text-lg text-slate-700">{children}</div>
    </section>
  );
}

/** The appointment as the visitor booked it. */
export function AppointmentSummary({ appointment, label = 'Your appointment' }: { appointment: ManagedAppointment; label?: string }) {
  return (
    <dl className="mx-auto mt-6 max-w-md rounded-lg border border-slate-200 bg-white p-5 text-left text-base shadow-sm">
      <div className="text-sm font-semibold uppercase tracking-wide text-slate-600">{label}</div>
      <div className="mt-3">
        <dt className="sr-only">Service</dt>
        <dd className="font-semibold text-slate-900">{appointment.serviceType}</dd>
      </div>
      <div className="mt-1">
        <dt className="sr-only">When</dt>
        <dd className="text-slate-700">{appointment.when}</dd>
      </div>
      <div className="mt-1">
        <dt className="sr-only">Status</dt>
        <dd className="text-sm text-slate-600">{appointment.status === 'confirmed' ? 'Confirmed' : appointment.status === 'requested' ? 'Requested (we will confirm it with you)' : 'Cancelled'}</dd>
      </div>
    </dl>
  );
}

const secondaryLink =
  'inline-flex h-12 items-center justify-center rounded-md border border-slate-300 bg-white px-6 font-semibold text-slate-800 hover:bg-slate-50';

/** A refused link: what the server said, and the ways forward. */
export function RefusedLink({ message }: { message: string }) {
  const { firm } = useContent();
  return (
    <LinkPage icon="refused" title="This link cannot be used">
      <p role="alert">{message}</p>
      <p className="mt-3 text-base text-slate-600">
        Need help? Call{' '}
        <a href={firm.contact.phoneHref} className="text-brand-700 underline">
          {firm.contact.phone}
        </a>{' '}
        or book a new time online.
      </p>
      <div className="mt-8 flex flex-col items-center justify-center gap-3 sm:flex-row">
        <Link to="/schedule" className={secondaryLink}>
          Book an appointment
        </Link>
        <Link to="/" className={secondaryLink}>
          Return to Home
        </Link>
      </div>
    </LinkPage>
  );
}

export function HomeLink({ label = 'Return to Home' }: { label?: string }) {
  return (
    <Link to="/" className={secondaryLink}>
      {label}
    </Link>
  );
}

export function CheckingLink({ title, icon }: { title: string; icon: 'cancel' | 'reschedule' }) {
  return (
    <LinkPage icon={icon} title={title}>
      <p aria-live="polite">Checking your link...</p>
    </LinkPage>
  );
}
