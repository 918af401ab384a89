import { LogOut } from 'lucide-react';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { toast } from '../../../components/ui/use-toast';
import { useAdminLogout } from '../api/session';

/**
 * The back office's one sign-out button. Without `onSignedOut` it is /admin's "Logout" (SPEC.md):
 * the session ends and the screen shows its login card in place (so do the account-profile and
 * two-factor steps, which stand in for a screen). A failure is a toast; the button waits while the
 * request runs.
 */
export function SignOutButton({ label = 'Logout', size, onSignedOut }: { label?: string; size?: 'sm'; onSignedOut?: () => void }) {
  const logout = useAdminLogout();
  const click = () =>
    logout.mutate(undefined, {
      onSuccess: onSignedOut,
      onError: () => toast({ variant: 'destructive', title: 'Error', description: 'Failed to sign out. Please try again' }),
    });
  return (
    <Button variant="outline" size={size} icon={LogOut} onClick={click} disabled={logout.isPending}>
      {label}
    </Button>
  );
}

/** What "Sign out" does once signed out, where the screen does not show a login card itself: a toast, then /admin/login. */
export function useToLoginAfterSignOut(): () => void {
  const navigate = useNavigate();
  return () => {
    toast({ title: 'Signed out successfully' });
    navigate('/admin/login');
  };
}
