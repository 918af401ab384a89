// @vitest-environment happy-dom
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { AdminLoginCard } from '../../web/features/admin/components/admin-login-card';
import { captureFetch, json, renderForm, shownToasts } from '../harness/web/form-harness';

// docs/product.md §6.1: the second sign-in step when the admin has turned two-factor sign-in on
// (worker/routes/admin/session.ts answers 401 with twoFactorRequired).

const CODE_MESSAGE = 'Enter the 6-digit code from your authenticator app';

describe('the admin login card with two-factor sign-in', () => {
  it('asks for the authentication code when the server requires it, keeps the password, and sends all three', async () => {
    const sent = captureFetch((request) =>
      (request.body as { code?: string }).code === '123456'
        ? json({ authenticated: true, username: 'admin' })
        : json({ message: CODE_MESSAGE, twoFactorRequired: true }, 401),
    );
    const onSignedIn = vi.fn();
    renderForm(<AdminLoginCard onSignedIn={onSignedIn} />);
    const user = userEvent.setup();
    expect(screen.queryByLabelText('Authentication code')).toBeNull();
    await user.type(screen.getByLabelText('Username'), 'admin');
    await user.type(screen.getByLabelText('Password'), 'correct-horse-battery');
    await user.click(screen.getByRole('button', { name: 'Login' }));

    const codeField = await screen.findByLabelText('Authentication code');
    await waitFor(() => expect(shownToasts()).toEqual([{ variant: 'destructive', title: 'Authentication code required', description: CODE_MESSAGE }]));
    expect(screen.getByLabelText<HTMLInputElement>('Password').value).toBe('correct-horse-battery');
    expect(onSignedIn).not.toHaveBeenCalled();

    await user.type(codeField, '123456');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    await waitFor(() => expect(onSignedIn).toHaveBeenCalledOnce());
    expect(sent.map((r) => r.body)).toEqual([
      { username: 'admin', password: 'correct-horse-battery' },
      { username: 'admin', password: 'correct-horse-battery', code: '123456' },
    ]);
  });

  it('shows no code field after a plain wrong password', async () => {
    captureFetch(() => json({ message: 'Invalid username or password' }, 401));
    renderForm(<AdminLoginCard />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Username'), 'admin');
    await user.type(screen.getByLabelText('Password'), 'wrong-password-1');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    await waitFor(() => expect(shownToasts()).toEqual([{ variant: 'destructive', title: 'Login failed', description: 'Invalid username or password' }]));
    expect(screen.queryByLabelText('Authentication code')).toBeNull();
  });
});
