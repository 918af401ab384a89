import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { Card, CardContent, CardHeader } from '../../../components/ui/card';
import { errorMessage } from '../../../lib/api';
import { AdminLoginCard } from './admin-login-card';
import { AdminSpinner } from './admin-page-parts';

// The pages an e-mailed link opens in the back office (docs/product.md §6.8): the invitation's
// /admin/accept-invitation and the password reset's /admin/reset-password. Both check the link's
// token first, show its form, and end on the sign-in card.

/** A link's check as react-query gives it. */
interface LinkCheck {
  isPending: boolean;
  isError: boolean;
  error: unknown;
}

/**
 * The card of a link page: its title and `intro` (once the link is known good), then one of: the
 * link is `incomplete` (no token), being checked, refused (the server's message, else `invalid`),
 * or good (`children`, the page's form).
 */
export function EmailLinkCard({ title, intro, token, check, incomplete, invalid, children }: { title: string; intro?: ReactNode; token: string; check: LinkCheck; incomplete: string; invalid: string; children: ReactNode }) {
  return (
    <div className="mx-auto flex min-h-[60vh] max-w-md items-center px-4 py-16 [overflow-wrap:anywhere]">
      <Card className="w-full">
        <CardHeader>
          <h1 className="text-2xl font-bold text-brand-800">{title}</h1>
          {intro && <p className="text-sm text-slate-600">{intro}</p>}
        </CardHeader>
        <CardContent>
          {token === '' ? (
            <p role="alert" className="text-sm text-red-800">
              {incomplete}
            </p>
          ) : check.isPending ? (
            <AdminSpinner />
          ) : check.isError ? (
            <p role="alert" className="text-sm text-red-800">
              {errorMessage(check.error, invalid)}
            </p>
          ) : (
            children
          )}
        </CardContent>
      </Card>
    </div>
  );
}

/** What a link page shows once its form succeeded: `message`, then the sign-in card, which goes on to /admin. */
export function EmailLinkDone({ message }: { message: string }) {
  const navigate = useNavigate();
  return (
    <div>
      <p role="status" className="mx-auto mt-10 max-w-md px-4 text-center text-slate-700">
        {message}
      </p>
      <AdminLoginCard onSignedIn={() => navigate('/admin')} />
    </div>
  );
}
