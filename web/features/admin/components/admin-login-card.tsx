import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardHeader } from '../../../components/ui/card';
import { Input, Label } from '../../../components/ui/input';
import { toast } from '../../../components/ui/use-toast';
import { ApiError } from '../../../lib/api';
import { useAdminLogin } from '../api/session';

/** docs/product.md §6.1: the signed-out admin screen. Toasts from §10. */
export function AdminLoginCard({ onSignedIn }: { onSignedIn?: () => void }) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const login = useAdminLogin();

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (!username.trim() || !password) {
      toast({ variant: 'destructive', title: 'Login failed', description: 'Please enter your username and password' });
      return;
    }
    try {
      await login.mutateAsync({ username: username.trim(), password });
      setPassword('');
      toast({ title: 'Login successful', description: 'Welcome to the admin panel' });
      onSignedIn?.();
    } catch (error) {
      if (error instanceof ApiError && error.status === 429) {
        // The server says how long: minutes for this network's lock, seconds for the account-wide delay.
        toast({ variant: 'destructive', title: 'Login failed', description: error.serverMessage ?? 'Too many failed sign-in attempts. Please wait and try again.' });
      } else if (error instanceof ApiError) {
        toast({ variant: 'destructive', title: 'Login failed', description: 'Invalid username or password' });
      } else {
        toast({ variant: 'destructive', title: 'Error', description: 'Failed to connect to server' });
      }
    }
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
              <Input id="admin-username" name="username" autoComplete="username" required value={username} onChange={(e) => setUsername(e.target.value)} />
            </div>
            <div>
              <Label htmlFor="admin-password">Password</Label>
              <Input id="admin-password" name="password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
            </div>
            <Button type="submit" className="w-full" disabled={login.isPending}>
              {login.isPending ? 'Logging in...' : 'Login'}
            </Button>
          </form>
        </CardContent>
      </Card>
    </div>
  );
}
