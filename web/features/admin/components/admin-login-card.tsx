import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardHeader } from '../../../components/ui/card';
import { Input, Label } from '../../../components/ui/input';
import { toast } from '../../../components/ui/use-toast';
import { adminLoginSchema } from '#core/schemas/admin';
import { ApiError } from '../../../lib/api';
import { useSchemaForm } from '../../../lib/use-schema-form';
import { useAdminLogin } from '../api/session';

/** The server's answer to the right password when the second factor is on (worker/routes/admin/session.ts). */
function asksForCode(error: ApiError): boolean {
  return error.status === 401 && typeof error.body === 'object' && error.body !== null && (error.body as { twoFactorRequired?: unknown }).twoFactorRequired === true;
}

/**
 * docs/product.md §6.1: the signed-out admin screen. Toasts from §10. When the server answers that
 * a second factor is needed, an "Authentication code" field appears under the password (which is
 * kept) and the next submit sends all three.
 */
export function AdminLoginCard({ onSignedIn }: { onSignedIn?: () => void }) {
  const [needsCode, setNeedsCode] = useState(false);
  const login = useAdminLogin();
  const form = useSchemaForm({
    id: 'admin',
    initial: { username: '', password: '', code: '' },
    schema: adminLoginSchema,
    submit: async ({ username, password, code }) => {
      await login.mutateAsync({ username, password, ...(needsCode ? { code } : {}) });
      form.setValues((values) => ({ ...values, password: '', code: '' }));
      toast({ title: 'Login successful', description: 'Welcome to the admin panel' });
      onSignedIn?.();
    },
    // Only an over-long entry fails the shared schema here: the answer the server would give it.
    onInvalid: () => toast({ variant: 'destructive', title: 'Login failed', description: 'Invalid username or password' }),
    onError: (error) => {
      if (error instanceof ApiError && error.status === 429) {
        // The server says how long: minutes for this network's lock, seconds for the account-wide delay.
        toast({ variant: 'destructive', title: 'Login failed', description: error.serverMessage ?? 'Too many failed sign-in attempts. Please wait and try again.' });
      } else if (error instanceof ApiError && asksForCode(error)) {
        // First time: the code field appears. After a code: that code was wrong or already used.
        toast({ variant: 'destructive', title: needsCode ? 'Login failed' : 'Authentication code required', description: error.serverMessage ?? 'Enter the 6-digit code from your authenticator app' });
        setNeedsCode(true);
        form.setValue('code', '');
      } else if (error instanceof ApiError && error.status === 403) {
        // A deactivated account: the server says so (only to whoever gave its password).
        toast({ variant: 'destructive', title: 'Login failed', description: error.serverMessage ?? 'This account cannot sign in' });
      } else if (error instanceof ApiError) {
        toast({ variant: 'destructive', title: 'Login failed', description: 'Invalid username or password' });
      } else {
        toast({ variant: 'destructive', title: 'Error', description: 'Failed to connect to server' });
      }
    },
  });
  const { field } = form;

  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    const { username, password, code } = form.values;
    if (!username.trim() || !password) {
      toast({ variant: 'destructive', title: 'Login failed', description: 'Please enter your username and password' });
      return;
    }
    if (needsCode && !code.trim()) {
      toast({ variant: 'destructive', title: 'Login failed', description: 'Enter the 6-digit code from your authenticator app' });
      return;
    }
    void form.handleSubmit();
  }

  return (
    <div className="mx-auto flex min-h-[60vh] max-w-md items-center px-4 py-16">
      <Card className="w-full">
        <CardHeader>
          <h1 className="text-2xl font-bold text-brand-800">Admin Login</h1>
          <p className="text-sm text-slate-600">Sign in to manage messages, appointments and newsletters.</p>
        </CardHeader>
        <CardContent>
          <form onSubmit={handleSubmit} className="space-y-4" noValidate>
            <div>
              <Label htmlFor="admin-username">Username</Label>
              <Input id="admin-username" autoComplete="username" required {...field('username')} />
            </div>
            <div>
              <Label htmlFor="admin-password">Password</Label>
              <Input id="admin-password" type="password" autoComplete="current-password" required {...field('password')} />
            </div>
            {needsCode && (
              <div>
                <Label htmlFor="admin-code">Authentication code</Label>
                <Input
                  id="admin-code"
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  required
                  // eslint-disable-next-line jsx-a11y/no-autofocus -- the field appears only after the password step, on the visitor's own submit
                  autoFocus
                  {...field('code')}
                  aria-describedby="admin-code-hint"
                />
                <p id="admin-code-hint" className="mt-1 text-xs text-slate-600">
                  The 6-digit code from your authenticator app, or one of your recovery codes.
                </p>
              </div>
            )}
            <Button type="submit" className="w-full" disabled={form.pending}>
              {form.pending ? 'Logging in...' : 'Login'}
            </Button>
          </form>
        </CardContent>
      </Card>
    </div>
  );
}
