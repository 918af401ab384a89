// @vitest-environment happy-dom
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ChangePasswordDialog } from '../../web/features/admin/components/change-password-dialog';
import { dismissToast } from '../../web/components/ui/use-toast';
import { captureFetch, deferred, json, renderForm, shownToasts } from '../harness/web/form-harness';

// docs/product.md §6.3 (the dialog), §9 (its messages, exact), §10 (its toasts).

function open() {
  const onOpenChange = vi.fn();
  renderForm(<ChangePasswordDialog open onOpenChange={onOpenChange} />);
  return onOpenChange;
}

async function fill(current: string, next: string) {
  const user = userEvent.setup();
  if (current) await user.type(screen.getByLabelText('Current Password'), current);
  if (next) await user.type(screen.getByLabelText('New Password'), next);
  return user;
}
const change = (user: ReturnType<typeof userEvent.setup>) => user.click(screen.getByRole('button', { name: 'Change Password' }));
const error = (description: string) => [{ variant: 'destructive', title: 'Error', description }];

describe('the change password dialog', () => {
  it('asks for both fields and sends nothing while one is empty', async () => {
    const sent = captureFetch(() => json({}, 500));
    const onOpenChange = open();
    let user = await fill('', '');
    await change(user);
    await waitFor(() => expect(shownToasts()).toEqual(error('Please fill in both password fields')));
    act(() => dismissToast());
    await waitFor(() => expect(shownToasts()).toEqual([]));
    user = await fill('old-password', '');
    await change(user);
    await waitFor(() => expect(shownToasts()).toEqual(error('Please fill in both password fields')));
    expect(sent).toEqual([]);
    expect(onOpenChange).not.toHaveBeenCalled();
  });

  it('refuses a new password under 12 characters (the shared schema)', async () => {
    const sent = captureFetch(() => json({}, 500));
    open();
    const user = await fill('old-password', 'elevenchars');
    await change(user);
    await waitFor(() => expect(shownToasts()).toEqual(error('Password must be at least 12 characters')));
    expect(sent).toEqual([]);
  });

  it('refuses one of the most common passwords, even with digits added (the shared schema)', async () => {
    const sent = captureFetch(() => json({}, 500));
    open();
    const user = await fill('old-password', 'Password2026!');
    await change(user);
    await waitFor(() =>
      expect(shownToasts()).toEqual(error('This password is too common and would be guessed early. Choose a longer phrase of unrelated words.')),
    );
    expect(sent).toEqual([]);
  });

  it('POSTs both passwords, disables the button meanwhile, then closes with "Password changed successfully"', async () => {
    const answer = deferred<Response>();
    const sent = captureFetch(() => answer.promise);
    const onOpenChange = open();
    const user = await fill('old-password', 'new-password-1');
    await change(user);
    await waitFor(() => expect((screen.getByRole('button', { name: 'Change Password' }) as HTMLButtonElement).disabled).toBe(true));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent).toEqual([{ method: 'POST', url: '/api/admin/change-password', body: { currentPassword: 'old-password', newPassword: 'new-password-1' } }]);

    answer.resolve(json({ message: 'Password changed successfully' }));
    await waitFor(() => expect(shownToasts()).toEqual([{ variant: 'default', title: 'Success', description: 'Password changed successfully' }]));
    expect(onOpenChange).toHaveBeenCalledWith(false);
    expect((screen.getByLabelText('Current Password') as HTMLInputElement).value).toBe('');
    expect((screen.getByLabelText('New Password') as HTMLInputElement).value).toBe('');
  });

  it("shows the server's message for a wrong current password and stays open", async () => {
    captureFetch(() => json({ message: 'Current password is incorrect' }, 400));
    const onOpenChange = open();
    const user = await fill('wrong-password', 'new-password-1');
    await change(user);
    await waitFor(() => expect(shownToasts()).toEqual(error('Current password is incorrect')));
    expect(onOpenChange).not.toHaveBeenCalled();
    expect((screen.getByRole('button', { name: 'Change Password' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('falls back to "Failed to change password" when the answer has no text', async () => {
    captureFetch(() => new Response('', { status: 500 }));
    open();
    const user = await fill('old-password', 'new-password-1');
    await change(user);
    await waitFor(() => expect(shownToasts()).toEqual(error('Failed to change password')));
  });
});
