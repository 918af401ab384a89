import { Loader2 } from 'lucide-react';
import type { FormEvent } from 'react';
import { changePasswordSchema } from '#core/schemas/admin';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogActions } from '../../../components/ui/dialog';
import { Input, Label } from '../../../components/ui/input';
import { toast } from '../../../components/ui/use-toast';
import { errorMessage } from '../../../lib/api';
import { useSchemaForm } from '../../../lib/use-schema-form';
import { useChangePassword } from '../api/admin-api';

/**
 * The Change Admin Password dialog (docs/product.md §6.3); the rules are the server's own schema
 * (core/schemas/admin.ts).
 */
export function ChangePasswordDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const change = useChangePassword();
  const form = useSchemaForm({
    id: 'change-password',
    initial: { currentPassword: '', newPassword: '' },
    schema: changePasswordSchema,
    submit: async (data) => {
      await change.mutateAsync(data);
      toast({ title: 'Success', description: 'Password changed successfully' });
      close(false);
    },
    // The dialog says what is wrong in a toast (docs/product.md §10), one message at a time.
    onInvalid: (_errors, first) => toast({ variant: 'destructive', title: 'Error', description: first }),
    onError: (error) => toast({ variant: 'destructive', title: 'Error', description: errorMessage(error, 'Failed to change password') }),
  });

  function close(next: boolean) {
    if (!next) form.reset();
    onOpenChange(next);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!form.values.currentPassword || !form.values.newPassword) {
      toast({ variant: 'destructive', title: 'Error', description: 'Please fill in both password fields' });
      return;
    }
    void form.handleSubmit();
  }

  return (
    <Dialog open={open} onOpenChange={close} title="Change Admin Password" description="Other signed-in sessions end when the password changes.">
      <form onSubmit={submit} className="space-y-4" noValidate>
        <div>
          <Label htmlFor="current-password">Current Password</Label>
          <Input id="current-password" type="password" autoComplete="current-password" {...form.field('currentPassword')} />
        </div>
        <div>
          <Label htmlFor="new-password">New Password</Label>
          <Input id="new-password" type="password" autoComplete="new-password" {...form.field('newPassword')} aria-describedby="new-password-hint" />
          <p id="new-password-hint" className="mt-1 text-xs text-slate-600">
            At least 12 characters, and not a common password.
          </p>
        </div>
        <DialogActions onCancel={() => close(false)}>
          <Button type="submit" disabled={form.pending}>
            {form.pending && <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />}
            Change Password
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
