import { CalendarCog, FileText, History, LayoutDashboard, MessagesSquare, Newspaper, Rocket, UserCog, Users } from 'lucide-react';
import { Link, useLocation } from 'react-router';
import { buttonClass } from '../../../components/ui/button';
import { useAdminSession } from '../api/session';
import { SignOutButton, useToLoginAfterSignOut } from './sign-out-button';

/**
 * The back office's screens, in the order of the navigation (docs/product.md §6). Owner-only ones
 * (§6.8, §6.9) are not offered to staff, whom the API would refuse anyway. `match` says which
 * addresses are this screen (the editor is part of Newsletters, a content section part of Content).
 */
export const BACK_OFFICE_SCREENS = [
  { to: '/admin', icon: LayoutDashboard, label: 'Admin Panel', ownerOnly: false },
  { to: '/admin/subscribers', icon: Users, label: 'Subscribers', ownerOnly: false },
  { to: '/admin/newsletters', icon: Newspaper, label: 'Newsletters', ownerOnly: false },
  { to: '/admin/availability', icon: CalendarCog, label: 'Availability', ownerOnly: false },
  { to: '/admin/chats', icon: MessagesSquare, label: 'Chats', ownerOnly: false },
  { to: '/admin/content', icon: FileText, label: 'Content', ownerOnly: false },
  { to: '/admin/users', icon: UserCog, label: 'Users', ownerOnly: true },
  { to: '/admin/audit', icon: History, label: 'Audit Trail', ownerOnly: true },
  { to: '/admin/go-live', icon: Rocket, label: 'Go-live', ownerOnly: true },
] as const;

/** The screen `pathname` belongs to: the longest screen address it is or lies under. */
export function currentScreen(pathname: string): string | undefined {
  const path = pathname.replace(/\/+$/, '') || '/';
  return BACK_OFFICE_SCREENS.map((s) => s.to)
    .filter((to) => path === to || (to !== '/admin' && path.startsWith(`${to}/`)))
    .sort((a, b) => b.length - a.length)[0];
}

const ROLE_LABEL = { owner: 'Owner', staff: 'Staff' } as const;

/**
 * How the navigation signs out: `logout` is /admin's "Logout" (SPEC.md), which shows the login card
 * in place; `sign-out` says "Sign out" and goes to /admin/login with a toast, as /admin/subscribers'
 * Sign Out does; `none` where the screen's own row already has Sign Out (/admin/subscribers, whose
 * row SPEC.md fixes), so there are never two sign-out buttons on one screen.
 */
export type SignOutMode = 'logout' | 'sign-out' | 'none';

/**
 * The one back-office navigation (docs/product.md §6, "Back-office navigation"), right after each
 * screen's title: every screen the account may open (the current one marked aria-current="page"),
 * who is signed in with their role, and signing out.
 */
export function AdminNav({ signOut = 'sign-out' }: { signOut?: SignOutMode }) {
  const session = useAdminSession().data;
  const { pathname } = useLocation();
  const toLogin = useToLoginAfterSignOut();
  const current = currentScreen(pathname);
  if (!session?.authenticated) return null;
  const isOwner = session.role === 'owner';
  // The person's name once the account has one (docs/product.md §6.8), else the username.
  const who = session.name.trim() || session.username;

  return (
    <nav aria-label="Back office" className="flex flex-wrap items-center justify-between gap-x-6 gap-y-3 border-y border-slate-200 py-3">
      <ul className="flex flex-wrap gap-2">
        {BACK_OFFICE_SCREENS.filter((s) => isOwner || !s.ownerOnly).map(({ to, icon: Icon, label }) => {
          const here = to === current;
          return (
            <li key={to}>
              <Link
                to={to}
                aria-current={here ? 'page' : undefined}
                className={buttonClass(here ? 'primary' : 'outline', 'sm', 'min-h-9')}
              >
                <Icon className="h-4 w-4" aria-hidden="true" />
                {label}
              </Link>
            </li>
          );
        })}
      </ul>
      <div className="flex flex-wrap items-center gap-3">
        <p className="text-sm text-slate-700" data-testid="signed-in-as">
          Signed in as <span className="font-medium text-slate-900">{who}</span> ({ROLE_LABEL[session.role]})
        </p>
        {signOut === 'logout' && <SignOutButton size="sm" />}
        {signOut === 'sign-out' && <SignOutButton label="Sign out" size="sm" onSignedOut={toLogin} />}
      </div>
    </nav>
  );
}
