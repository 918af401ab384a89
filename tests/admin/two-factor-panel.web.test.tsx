// @vitest-environment happy-dom
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { TwoFactorEnrolment } from '../../web/features/admin/components/two-factor-enrolment';
import { TwoFactorPanel } from '../../web/features/admin/components/two-factor-panel';
import { captureFetch, json, renderForm, type SentRequest } from '../harness/web/form-harness';

// docs/product.md §6.1: setting up, turning on and turning off two-factor sign-in each
// ask for the password; every message is tied to the input it is about.

const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const setupAnswer = { secret: SECRET, otpauthUri: `otpauth://totp/Warrendale%20CPA%3Aadmin?secret=${SECRET}&issuer=Warrendale%20CPA` };
const wrongPassword = { message: 'Password is incorrect', fields: { password: ['Password is incorrect'] } };

/** The text of the messages an input is described by (aria-describedby). */
function describedText(input: HTMLElement): string[] {
  const ids = input.getAttribute('aria-describedby')?.split(' ') ?? [];
  return ids.map((id) => document.getElementById(id)?.textContent ?? `missing #${id}`);
}

const posts = (sent: SentRequest[]) => sent.filter((r) => r.method === 'POST').map((r) => [r.url, r.body]);

describe('the two-factor panel', () => {
  it('asks for the password before the set-up, shows the server\'s answer under it, and sends it again with the code', async () => {
    const sent = captureFetch((request) => {
      if (request.method === 'GET') return json({ enabled: false });
      const body = request.body as { password: string; code?: string };
      if (body.password !== 'correct-horse-battery') return json(wrongPassword, 400);
      if (request.url.endsWith('/setup')) return json(setupAnswer);
      const message = 'That code did not match. Check the time on your phone and enter the current code.';
      return body.code === '123456' ? json({ enabled: true, recoveryCodes: ['aaaa-bbbb'] }) : json({ message, fields: { code: [message] } }, 400);
    });
    renderForm(<TwoFactorPanel />);
    const user = userEvent.setup();
    const password = await screen.findByLabelText('Password');
    await user.click(screen.getByRole('button', { name: 'Set up two-factor sign-in' }));
    expect(password.getAttribute('aria-invalid')).toBe('true');
    expect(describedText(password)).toEqual(['Password is required']);
    expect(posts(sent)).toEqual([]);

    await user.type(password, 'not-the-password');
    await user.click(screen.getByRole('button', { name: 'Set up two-factor sign-in' }));
    await waitFor(() => expect(describedText(screen.getByLabelText('Password'))).toEqual(['Password is incorrect']));

    await user.clear(screen.getByLabelText('Password'));
    await user.type(screen.getByLabelText('Password'), 'correct-horse-battery');
    await user.click(screen.getByRole('button', { name: 'Set up two-factor sign-in' }));
    const code = await screen.findByLabelText('Code from the app');
    // The password typed for the set-up is kept for turning it on.
    expect(screen.getByLabelText<HTMLInputElement>('Password').value).toBe('correct-horse-battery');
    expect(screen.getByLabelText('Password').getAttribute('aria-invalid')).toBeNull();

    await user.type(code, '000000');
    await user.click(screen.getByRole('button', { name: 'Turn on' }));
    await waitFor(() =>
      expect(describedText(screen.getByLabelText('Code from the app'))).toEqual(['That code did not match. Check the time on your phone and enter the current code.']),
    );
    expect(screen.getByLabelText('Password').getAttribute('aria-invalid')).toBeNull();

    await user.clear(screen.getByLabelText('Code from the app'));
    await user.type(screen.getByLabelText('Code from the app'), '123456');
    await user.click(screen.getByRole('button', { name: 'Turn on' }));
    await screen.findByRole('region', { name: 'Recovery codes' });
    expect(posts(sent)).toEqual([
      ['/api/admin/two-factor/setup', { password: 'not-the-password' }],
      ['/api/admin/two-factor/setup', { password: 'correct-horse-battery' }],
      ['/api/admin/two-factor/enable', { password: 'correct-horse-battery', code: '000000' }],
      ['/api/admin/two-factor/enable', { password: 'correct-horse-battery', code: '123456' }],
    ]);
  }, 30_000);

  it('ties a refusal that names both inputs (or a 429) to both when turning it off', async () => {
    let answer = json({ message: 'Password or code is incorrect' }, 400);
    captureFetch((request) => (request.method === 'GET' ? json({ enabled: true }) : answer));
    renderForm(<TwoFactorPanel />);
    const user = userEvent.setup();
    const password = await screen.findByLabelText('Password');
    const code = screen.getByLabelText('Authentication code');
    await user.click(screen.getByRole('button', { name: 'Turn off' }));
    expect(describedText(password)).toEqual(['Password is required']);
    expect(describedText(code)).toEqual(['Enter a code from the app or a recovery code']);

    await user.type(password, 'not-the-password');
    await user.type(code, '123456');
    await user.click(screen.getByRole('button', { name: 'Turn off' }));
    await waitFor(() => expect(describedText(password)).toEqual(['Password or code is incorrect']));
    expect(describedText(code)).toEqual(['Password or code is incorrect']);
    expect(password.getAttribute('aria-invalid')).toBe('true');

    const tooMany = 'Too many failed sign-in attempts. Please wait 15 minutes and try again.';
    answer = json({ message: tooMany }, 429);
    await user.click(screen.getByRole('button', { name: 'Turn off' }));
    await waitFor(() => expect(describedText(password)).toEqual([tooMany]));
  }, 30_000);

  // Issue 49: the gate said "required" above a card that said "Optional".
  it('says "Optional" only while the owner does not require it, and "required" everywhere on the enrolment gate', async () => {
    captureFetch(() => json({ enabled: false, required: true }));
    const gate = renderForm(<TwoFactorEnrolment />);
    await screen.findByText(/^Required by the firm for every account/);
    expect(gate.container.textContent).toMatch(/requires two-factor sign-in/);
    expect(gate.container.textContent).not.toMatch(/optional/i);
    gate.unmount();

    // Already on while required: turning it off says what follows, never "optional".
    captureFetch(() => json({ enabled: true, required: true }));
    const on = renderForm(<TwoFactorPanel />);
    await screen.findByRole('form', { name: 'Turn off two-factor sign-in' });
    expect(on.container.textContent).toMatch(/Required by the firm/);
    expect(on.container.textContent).toMatch(/you will set it up again/);
    expect(on.container.textContent).not.toMatch(/optional/i);
    on.unmount();

    captureFetch(() => json({ enabled: false, required: false }));
    renderForm(<TwoFactorPanel />);
    await screen.findByText(/^Optional: sign-in also asks for a code/);
    expect(screen.queryByText(/required by the firm/i)).toBeNull();
  }, 30_000);
});
