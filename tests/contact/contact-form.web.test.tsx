// @vitest-environment happy-dom
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ContactForm } from '../../web/features/contact/components/contact-form';
import { captureFetch, dataLayer, deferred, json, renderForm, shownToasts } from '../harness/web/form-harness';

// docs/product.md §2 (the form), §9 (its messages, exact), §10 (its toasts), §12 (its events).

/** A field by its accessible name (the required mark is aria-hidden, so "Name", not "Name *"). */
const field = (name: string) => screen.getByRole('textbox', { name });
const PORTAL = 'https://portal.example/login';
const fieldError = (id: string) => document.getElementById(`contact-${id}-error`)?.textContent;

async function fill(values: { name?: string; email?: string; phone?: string; message?: string }) {
  const user = userEvent.setup();
  const labels = { name: 'Name', email: 'Email', phone: 'Phone (Optional)', message: 'Message' } as const;
  for (const [key, value] of Object.entries(values) as [keyof typeof labels, string][]) {
    await user.click(field(labels[key]));
    await user.paste(value);
  }
  return user;
}

describe('the contact form', () => {
  it('shows each required message on an empty submit, focuses the first field and sends nothing', async () => {
    const sent = captureFetch(() => json({}, 500));
    renderForm(<ContactForm clientPortal={PORTAL} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Send Message' }));
    await waitFor(() => expect(fieldError('name')).toBe('Name is required'));
    expect(fieldError('email')).toBe('Please enter a valid email address');
    expect(fieldError('phone')).toBeUndefined();
    expect(fieldError('message')).toBe('Message must be at least 10 characters');
    expect(field('Name').getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(field('Name'));
    expect(sent).toEqual([]);
  });

  it('shows the too-long messages of name, phone and message', async () => {
    const sent = captureFetch(() => json({}, 500));
    renderForm(<ContactForm clientPortal={PORTAL} />);
    const user = await fill({ name: 'n'.repeat(101), email: 'ann@example.com', phone: '1'.repeat(41), message: 'm'.repeat(5001) });
    await user.click(screen.getByRole('button', { name: 'Send Message' }));
    await waitFor(() => expect(fieldError('name')).toBe('Name must be at most 100 characters'));
    expect(fieldError('email')).toBeUndefined();
    expect(fieldError('phone')).toBe('Phone must be at most 40 characters');
    expect(fieldError('message')).toBe('Message must be at most 5000 characters');
    expect(sent).toEqual([]);
  });

  it('after a submit, re-checks a field as it is corrected', async () => {
    captureFetch(() => json({}, 500));
    renderForm(<ContactForm clientPortal={PORTAL} />);
    const user = await fill({ email: 'not-an-address' });
    await user.click(screen.getByRole('button', { name: 'Send Message' }));
    await waitFor(() => expect(fieldError('email')).toBe('Please enter a valid email address'));
    await user.clear(field('Email'));
    await user.type(field('Email'), 'ann@example.com');
    await waitFor(() => expect(fieldError('email')).toBeUndefined());
    expect(fieldError('name')).toBe('Name is required');
  });

  it('POSTs the message to /api/contact, disables the button while sending, then empties the form', async () => {
    const answer = deferred<Response>();
    const sent = captureFetch(() => answer.promise);
    renderForm(<ContactForm clientPortal={PORTAL} />);
    const user = await fill({ name: '  Ann Lee ', email: 'ann@example.com', message: 'Please call me about my 2025 return.' });
    await user.click(screen.getByRole('button', { name: 'Send Message' }));

    const sending = await screen.findByRole('button', { name: 'Sending...' });
    expect((sending as HTMLButtonElement).disabled).toBe(true);
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent).toEqual([
      {
        method: 'POST',
        url: '/api/contact',
        body: { name: 'Ann Lee', email: 'ann@example.com', phone: '', message: 'Please call me about my 2025 return.', website: '' },
      },
    ]);

    expect((screen.getByRole('button', { name: 'Sending...' }) as HTMLButtonElement).disabled).toBe(true);
    answer.resolve(json({ message: "Thank you for your message. We'll get back to you as soon as possible." }, 201));
    await waitFor(() => expect(shownToasts()).toEqual([{ variant: 'default', title: 'Message Sent', description: "We'll get back to you as soon as possible." }]));
    expect((screen.getByRole('button', { name: 'Send Message' }) as HTMLButtonElement).disabled).toBe(false);
    expect((field('Name') as HTMLInputElement).value).toBe('');
    expect((field('Message') as HTMLTextAreaElement).value).toBe('');
    expect(dataLayer()).toEqual([{ event: 'form_submission', category: 'Forms', action: 'success', label: 'Contact Form' }]);
  });

  it("shows the server's message when the send is refused, and keeps what was typed", async () => {
    captureFetch(() => json({ message: 'Too many messages from this address today. Please try again tomorrow.' }, 429));
    renderForm(<ContactForm clientPortal={PORTAL} />);
    const user = await fill({ name: 'Ann', email: 'ann@example.com', message: 'Hello there, firm.' });
    await user.click(screen.getByRole('button', { name: 'Send Message' }));
    await waitFor(() =>
      expect(shownToasts()).toEqual([{ variant: 'destructive', title: 'Error', description: 'Too many messages from this address today. Please try again tomorrow.' }]),
    );
    expect((field('Name') as HTMLInputElement).value).toBe('Ann');
    expect(dataLayer()).toEqual([{ event: 'form_submission', category: 'Forms', action: 'error', label: 'Contact Form' }]);
  });

  it('shows the generic text when the network fails before any answer', async () => {
    captureFetch(() => Promise.reject(new TypeError('')));
    renderForm(<ContactForm clientPortal={PORTAL} />);
    const user = await fill({ name: 'Ann', email: 'ann@example.com', message: 'Hello there, firm.' });
    await user.click(screen.getByRole('button', { name: 'Send Message' }));
    await waitFor(() => expect(shownToasts()).toEqual([{ variant: 'destructive', title: 'Error', description: 'Failed to send message. Please try again.' }]));
  });

  it('points to the client portal while the message holds an SSN, and still sends it if the visitor insists', async () => {
    const sent = captureFetch(() => json({ message: 'Thanks' }, 201));
    renderForm(<ContactForm clientPortal={PORTAL} />);
    const user = await fill({ name: 'Ann', email: 'ann@example.com', message: 'Call me at (412) 555-0123 about my return.' });
    const notice = document.getElementById('contact-message-notice')!;
    expect(notice.getAttribute('aria-live')).toBe('polite');
    expect(notice.textContent).toBe('');
    expect(field('Message').getAttribute('aria-describedby')).toBeNull();

    await user.type(field('Message'), ' My SSN is 123-45-6789.');
    expect(notice.textContent).toBe(
      "This looks like a Social Security or account number. Please don't send it here: upload it through our secure client portal (opens in a new tab).",
    );
    const link = screen.getByRole('link', { name: 'secure client portal (opens in a new tab)' });
    expect(link.getAttribute('href')).toBe(PORTAL);
    expect(link.getAttribute('target')).toBe('_blank');
    expect(field('Message').getAttribute('aria-describedby')).toBe('contact-message-notice');

    await user.click(screen.getByRole('button', { name: 'Send Message' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(notice.textContent).toBe('');

    await fill({ message: 'My account is 12345678' });
    expect(notice.textContent).not.toBe('');
    await user.clear(field('Message'));
    expect(notice.textContent).toBe('');
    expect(field('Message').getAttribute('aria-describedby')).toBeNull();
  });
});
