import { ArrowLeft, Loader2 } from 'lucide-react';
import { type ComponentType, lazy, Suspense, type ReactNode } from 'react';
import { Link } from 'react-router';
import { errorMessage, isUnauthorized } from '../../../lib/api';
import { type PageMeta, usePageMeta } from '../../../lib/page-meta';
import { useAdminSession, type SignedInSession } from '../api/session';
import { AdminLoginCard } from './admin-login-card';
import { AdminNav, type SignOutMode } from './admin-nav';

// Loaded only when the owner's policy sends an account to it: the screens' shared chunk stays small.
const TwoFactorEnrolment = lazy(async () => ({ default: (await import('./two-factor-enrolment')).TwoFactorEnrolment }));
// Likewise the first sign-in's "Tell us who you are", shown once per account at most.
const AccountProfileStep = lazy(async () => ({ default: (await import('./account-profile-step')).AccountProfileStep }));

// PanelCard has its own module so that the two-factor panel (which SignedInOnly's enrolment screen
// shows) can use it without importing this module back; the panels import it from here as before.
export { PanelCard } from './panel-card';

// What the admin pages (web/pages/admin*.tsx) share: the loading state, the session gate and the
// heading with the back-office navigation, and the titled card of each panel.

export function AdminSpinner() {
  return (
    <div className="flex justify-center py-24" role="status" aria-label="Loading">
      <Loader2 className="h-8 w-8 animate-spin text-brand-700" aria-hidden="true" />
    </div>
  );
}

/**
 * The spinner while the session is read, the login card when signed out, the two-factor set-up
 * while the owner's policy requires it of this account (docs/product.md §6.8), then "Tell us who
 * you are" while the account has no name or e-mail (the first owner, §6.8), else `children` with
 * the signed-in username and session (role): what is behind it mounts (and reads, and polls) only
 * while signed in (docs/product.md §6.2).
 */
export function SignedInOnly({ children }: { children: (username: string, session: SignedInSession) => ReactNode }) {
  const session = useAdminSession();
  if (session.isPending) return <AdminSpinner />;
  if (!session.data?.authenticated) return <AdminLoginCard />;
  if (session.data.mustEnrolTwoFactor) {
    return (
      <Suspense fallback={<AdminSpinner />}>
        <TwoFactorEnrolment />
      </Suspense>
    );
  }
  if (session.data.needsProfile === true) {
    return (
      <Suspense fallback={<AdminSpinner />}>
        <AccountProfileStep session={session.data} />
      </Suspense>
    );
  }
  return children(session.data.username, session.data);
}

/**
 * An admin screen as a page (web/pages/admin-*.tsx): its title and description, and `Screen`
 * mounted behind SignedInOnly, so it reads nothing until the admin is signed in.
 */
export function adminScreen(meta: PageMeta, Screen: ComponentType) {
  return function AdminScreen() {
    usePageMeta(meta);
    return <SignedInOnly>{() => <Screen />}</SignedInOnly>;
  };
}

/** What an owner-only screen shows a staff account (the API answers it 403 anyway). */
export function OwnerOnlyNotice() {
  return (
    <p role="alert" className="rounded-md border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900">
      Only an owner can manage users and security settings. Ask the firm’s owner.
    </p>
  );
}

/**
 * A back-office screen's title block, then the one back-office navigation (AdminNav) right after it,
 * as on every screen (docs/product.md §6, "Back-office navigation"): an optional link `back` (a
 * content section's way to the content overview), the title (`titleId` when something refers to
 * it), one line under it, and the screen's own `actions` beside the title (e.g. /admin/subscribers'
 * row, which SPEC.md fixes). `signOut` says how the navigation signs out (see SignOutMode).
 */
export function AdminSubPageHeading({
  title,
  titleId,
  intro,
  back,
  actions,
  signOut,
}: {
  title: string;
  titleId?: string;
  intro?: string;
  back?: { to: string; label: string };
  actions?: ReactNode;
  signOut?: SignOutMode;
}) {
  return (
    <div className="space-y-4">
      <div className="flex flex-col gap-4 lg:flex-row lg:items-end lg:justify-between">
        <div>
          {back && (
            <Link to={back.to} className="mb-2 inline-flex min-h-6 items-center gap-1 text-sm text-brand-700 hover:underline">
              <ArrowLeft className="h-4 w-4" aria-hidden="true" />
              {back.label}
            </Link>
          )}
          <h1 id={titleId} className="text-3xl font-bold text-brand-800">
            {title}
          </h1>
          {intro && <p className="mt-1 text-slate-600">{intro}</p>}
        </div>
        {actions}
      </div>
      <AdminNav signOut={signOut} />
    </div>
  );
}

const subPageWidths = { '4xl': 'max-w-4xl', '5xl': 'max-w-5xl' };

/**
 * The frame of an admin screen of one column (a form's width, `4xl`, or a list's, `5xl`): its
 * heading (AdminSubPageHeading's props) and then `children`, the screen itself.
 */
export function AdminSubPage({ width, children, ...heading }: Parameters<typeof AdminSubPageHeading>[0] & { width: keyof typeof subPageWidths; children: ReactNode }) {
  return (
    <section className={`mx-auto ${subPageWidths[width]} space-y-8 px-4 py-10 [overflow-wrap:anywhere] sm:px-6 lg:px-8`}>
      <AdminSubPageHeading {...heading} />
      {children}
    </section>
  );
}

/** The heading of one of the admin panel's list sections (its id labels the section). */
export function SectionHeading({ id, children }: { id: string; children: ReactNode }) {
  return (
    <h2 id={id} className="text-xl font-semibold text-brand-800">
      {children}
    </h2>
  );
}

/** An admin screen's or list's read that failed: "Failed to load `what`: " and the server's message. */
export function LoadFailure({ what, error }: { what: string; error: unknown }) {
  return (
    <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-4 text-sm text-red-800">
      Failed to load {what}: {errorMessage(error, 'Please try again.')}
    </p>
  );
}

/**
 * An admin page's query, shown: the spinner while it loads, then `children` with its data, or the
 * failure to load `what` (nothing for a 401: useEndSessionOn401 shows the login card instead).
 */
export function QueryView<T>({ query, what, children }: { query: { isPending: boolean; error: Error | null; data: T | undefined }; what: string; children: (data: T) => ReactNode }) {
  if (query.isPending) return <AdminSpinner />;
  if (query.error) {
    return isUnauthorized(query.error) ? null : (
      <LoadFailure what={what} error={query.error} />
    );
  }
  return children(query.data as T);
}
