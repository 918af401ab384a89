// @vitest-environment happy-dom
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { NewsletterSignup } from '../../web/features/newsletter/components/newsletter-signup';
import { captureFetch, dataLayer, deferred, json, renderForm, shownToasts } from '../harness/web/form-harness';

// docs/product.md §5.1 (the footer sign-up), §9 (its messages, exact), §10 (its toasts), §12.

const emailError = () => document.getElementById('newsletter-email-error')?.textContent;

async function fill(email: string, name = '') {
  const user = userEvent.setup();
  if (email) await user.type(screen.getByLabelText('Email address'), email);
  if (name) {
    await user.click(screen.getByLabelText('Name (optional)'));
    await user.paste(name);
  }
  return user;
}
const subscribe = (user: ReturnType<typeof userEvent.setup>) => user.click(screen.getByRole('button', { name: 'Subscribe' }));

describe('the newsletter sign-up', () => {
  it('refuses an empty or malformed address without sending anything', async () => {
    const sent = captureFetch(() => json({}, 500));
    renderForm(<NewsletterSignup />);
    const user = userEvent.setup();
    await subscribe(user);
    await waitFor(() => expect(emailError()).toBe('Please enter a valid email address'));
    expect(screen.getByLabelText('Email address').getAttribute('aria-invalid')).toBe('true');
    await user.type(screen.getByLabelText('Email address'), 'ann@example');
    await subscribe(user);
    await waitFor(() => expect((screen.getByRole('button', { name: 'Subscribe' }) as HTMLButtonElement).disabled).toBe(false));
    expect(emailError()).toBe('Please enter a valid email address');
    expect(sent).toEqual([]);
  });

  it('refuses a name over 100 characters', async () => {
    const sent = captureFetch(() => json({}, 500));
    renderForm(<NewsletterSignup />);
    const user = await fill('ann@example.com', 'n'.repeat(101));
    await subscribe(user);
    await waitFor(() => expect(emailError()).toBe('Name must be at most 100 characters'));
    expect(sent).toEqual([]);
  });

  it('POSTs the address (a blank name left out), disables the button meanwhile, then shows the server message', async () => {
    const answer = deferred<Response>();
    const sent = captureFetch(() => answer.promise);
    renderForm(<NewsletterSignup />);
    const user = await fill('ann@example.com');
    await subscribe(user);
    const pending = await screen.findByRole('button', { name: 'Subscribing...' });
    expect((pending as HTMLButtonElement).disabled).toBe(true);
    await waitFor(() => expect(sent).toEqual([{ method: 'POST', url: '/api/newsletter/subscribe', body: { email: 'ann@example.com' } }]));

    answer.resolve(json({ message: 'Please check your inbox to confirm your subscription.' }, 200));
    await waitFor(() => expect(shownToasts()).toEqual([{ variant: 'default', title: 'Almost there!', description: 'Please check your inbox to confirm your subscription.' }]));
    expect((screen.getByLabelText('Email address') as HTMLInputElement).value).toBe('');
    expect((screen.getByRole('button', { name: 'Subscribe' }) as HTMLButtonElement).disabled).toBe(false);
    expect(dataLayer()).toEqual([{ event: 'form_submission', category: 'Forms', action: 'success', label: 'Newsletter Signup' }]);
  });

  it('sends a given name trimmed', async () => {
    const sent = captureFetch(() => json({ message: 'Check your inbox.' }));
    renderForm(<NewsletterSignup />);
    const user = await fill('ann@example.com', '  Ann  ');
    await subscribe(user);
    await waitFor(() => expect(sent).toEqual([{ method: 'POST', url: '/api/newsletter/subscribe', body: { email: 'ann@example.com', name: 'Ann' } }]));
  });

  it("shows the server's message when the sign-up is refused, else the generic text", async () => {
    let answer = json({ message: 'Too many sign-ups. Please try again later.' }, 429);
    captureFetch(() => answer);
    renderForm(<NewsletterSignup />);
    const user = await fill('ann@example.com');
    await subscribe(user);
    await waitFor(() => expect(shownToasts()).toEqual([{ variant: 'destructive', title: 'Error', description: 'Too many sign-ups. Please try again later.' }]));
    expect((screen.getByLabelText('Email address') as HTMLInputElement).value).toBe('ann@example.com');

    answer = new Response('', { status: 502 });
    await subscribe(user);
    await waitFor(() => expect(shownToasts()).toEqual([{ variant: 'destructive', title: 'Error', description: 'Failed to subscribe. Please try again.' }]));
    expect(dataLayer().map((e) => e.action)).toEqual(['error', 'error']);
  });
});
