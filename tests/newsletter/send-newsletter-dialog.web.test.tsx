// @vitest-environment happy-dom
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { defaultContent } from '#core/content/default-content';
import { dismissToast } from '../../web/components/ui/use-toast';
import { fallbackTemplate, SendNewsletterDialog } from '../../web/features/admin/components/send-newsletter-dialog';
import { captureFetch, deferred, json, renderForm, shownToasts, type Answer } from '../harness/web/form-harness';

// docs/product.md §6.3 (the dialog), §9 (its messages, exact), §10 (its toasts). The subject's
// length and single-line rules are the server's (core/schemas/newsletter.ts); the dialog caps
// the field at 200 characters and shows whatever message the server answers.

function open(answer: Answer) {
  const sent = captureFetch(answer);
  const onOpenChange = vi.fn();
  renderForm(<SendNewsletterDialog open onOpenChange={onOpenChange} activeCount={42} />);
  return { sent, onOpenChange };
}

async function fill(subject: string, content: string) {
  const user = userEvent.setup();
  if (subject) {
    await user.click(screen.getByLabelText('Subject'));
    await user.paste(subject);
  }
  if (content) {
    await user.click(screen.getByLabelText('HTML Content'));
    await user.paste(content);
  }
  return user;
}
const sendButton = () => screen.getByRole('button', { name: /Send to 42 Subscribers|Sending\.\.\./ }) as HTMLButtonElement;
const error = (description: string) => [{ variant: 'destructive', title: 'Error', description }];
const posts = (sent: { method: string }[]) => sent.filter((r) => r.method === 'POST');

describe('the send newsletter dialog', () => {
  it('asks for both subject and content (blank counts as empty) and sends nothing', async () => {
    const { sent, onOpenChange } = open(() => json({}, 500));
    let user = await fill('', '<p>Hello</p>');
    await user.click(sendButton());
    await waitFor(() => expect(shownToasts()).toEqual(error('Please fill in both subject and content')));
    act(() => dismissToast());
    await waitFor(() => expect(shownToasts()).toEqual([]));
    await user.clear(screen.getByLabelText('HTML Content'));
    user = await fill('Spring update', '   ');
    await user.click(sendButton());
    await waitFor(() => expect(shownToasts()).toEqual(error('Please fill in both subject and content')));
    expect(sent).toEqual([]);
    expect(onOpenChange).not.toHaveBeenCalled();
  });

  it('caps the subject at 200 characters', async () => {
    open(() => json({}, 500));
    await fill('s'.repeat(205), '');
    expect((screen.getByLabelText('Subject') as HTMLInputElement).value).toBe('s'.repeat(200));
  });

  it('POSTs the trimmed subject and the content, disables the button meanwhile, then closes', async () => {
    const answer = deferred<Response>();
    const { sent, onOpenChange } = open(() => answer.promise);
    const user = await fill('  Spring update  ', '<p>Hello</p>\n');
    await user.click(sendButton());
    await waitFor(() => expect(sendButton().textContent).toBe('Sending...'));
    expect(sendButton().disabled).toBe(true);
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent).toEqual([{ method: 'POST', url: '/api/admin/send-newsletter', body: { subject: 'Spring update', content: '<p>Hello</p>\n' } }]);

    answer.resolve(json({ message: 'Newsletter sent to 42 subscribers', newsletterId: 7, recipientCount: 42, totalRecipients: 42, status: 'sent' }));
    await waitFor(() => expect(shownToasts()).toEqual([{ variant: 'default', title: 'Success', description: 'Newsletter sent to 42 subscribers' }]));
    expect(onOpenChange).toHaveBeenCalledWith(false);
    expect((screen.getByLabelText('Subject') as HTMLInputElement).value).toBe('');
    expect((screen.getByLabelText('HTML Content') as HTMLTextAreaElement).value).toBe('');
  });

  it("shows the server's message for a refused send (e.g. a subject on two lines) and keeps the text", async () => {
    const { onOpenChange } = open((request) =>
      request.method === 'POST' ? json({ message: 'The subject must be a single line', fields: { subject: ['The subject must be a single line'] } }, 400) : json({}, 404),
    );
    const user = await fill('Spring update', '<p>Hello</p>');
    await user.click(sendButton());
    await waitFor(() => expect(shownToasts()).toEqual(error('The subject must be a single line')));
    expect(onOpenChange).not.toHaveBeenCalled();
    expect((screen.getByLabelText('Subject') as HTMLInputElement).value).toBe('Spring update');
    expect(sendButton().disabled).toBe(false);
  });

  it('falls back to "Failed to send newsletter" when the answer has no text', async () => {
    open(() => new Response('', { status: 502 }));
    const user = await fill('Spring update', '<p>Hello</p>');
    await user.click(sendButton());
    await waitFor(() => expect(shownToasts()).toEqual(error('Failed to send newsletter')));
  });

  it('loads the template from GET /api/admin/newsletter/template, keeping a typed subject', async () => {
    const { sent } = open(() => json({ subject: 'Template subject', htmlContent: '<h1>Template</h1>' }));
    const user = await fill('My subject', '');
    await user.click(screen.getByRole('button', { name: 'Load Template' }));
    await waitFor(() => expect((screen.getByLabelText('HTML Content') as HTMLTextAreaElement).value).toBe('<h1>Template</h1>'));
    expect((screen.getByLabelText('Subject') as HTMLInputElement).value).toBe('My subject');
    expect(sent).toEqual([{ method: 'GET', url: '/api/admin/newsletter/template', body: undefined }]);
    expect(posts(sent)).toEqual([]);
  });

  it('uses the built-in template when the template endpoint fails', async () => {
    open(() => json({ message: 'Unauthorized' }, 401));
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Load Template' }));
    await waitFor(() => expect((screen.getByLabelText('HTML Content') as HTMLTextAreaElement).value).toBe(fallbackTemplate(defaultContent.firm.name).htmlContent));
    expect((screen.getByLabelText('Subject') as HTMLInputElement).value).toBe(fallbackTemplate(defaultContent.firm.name).subject);
  });
});

describe('"Send a test" in the send newsletter dialog', () => {
  const testButton = () => screen.getByRole('button', { name: /Send a test|Sending test\.\.\./ }) as HTMLButtonElement;
  const testAddress = () => screen.getByLabelText('Send a test to') as HTMLInputElement;

  it('starts with an empty address and checks it with the shared rule before sending anything', async () => {
    const { sent } = open(() => json({}, 500));
    expect(testAddress().value).toBe('');
    const user = await fill('Spring update', '<p>Hello</p>');
    await user.click(testButton());
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Please enter an email address'));
    expect(testAddress().getAttribute('aria-invalid')).toBe('true');
    expect(testAddress().getAttribute('aria-describedby')).toBe('newsletter-test-address-error');
    await user.type(testAddress(), 'not-an-address');
    await user.click(testButton());
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Please enter a valid email address'));
    expect(sent).toEqual([]);
  });

  it('asks for subject and content first', async () => {
    const { sent } = open(() => json({}, 500));
    const user = await fill('', '<p>Hello</p>');
    await user.type(testAddress(), 'owner@example.com');
    await user.click(testButton());
    await waitFor(() => expect(shownToasts()).toEqual(error('Please fill in both subject and content')));
    expect(sent).toEqual([]);
  });

  it('POSTs this issue and the trimmed address, shows the answer, and keeps the dialog open for the real send', async () => {
    const answer = deferred<Response>();
    const { sent, onOpenChange } = open(() => answer.promise);
    const user = await fill('  Spring update  ', '<p>Hello</p>');
    await user.type(testAddress(), '  owner@example.com ');
    await user.click(testButton());
    await waitFor(() => expect(testButton().textContent).toBe('Sending test...'));
    expect(testButton().disabled).toBe(true);
    expect(sent).toEqual([{ method: 'POST', url: '/api/admin/newsletter/test-send', body: { subject: 'Spring update', content: '<p>Hello</p>', to: 'owner@example.com' } }]);
    expect(screen.queryByRole('alert')).toBeNull();

    answer.resolve(json({ message: 'Test sent to owner@example.com' }));
    await waitFor(() => expect(shownToasts()).toEqual([{ variant: 'default', title: 'Test sent', description: 'Test sent to owner@example.com' }]));
    expect(onOpenChange).not.toHaveBeenCalled();
    expect((screen.getByLabelText('Subject') as HTMLInputElement).value).toBe('  Spring update  ');
    // An e-mail input strips the spaces itself (HTML's value sanitization); the schema trims too.
    expect(testAddress().value).toBe('owner@example.com');
    expect(sendButton().textContent).toBe('Send to 42 Subscribers');
  });

  it("shows the server's message when the test fails, and a fallback when there is none", async () => {
    let status = 502;
    open(() => (status === 502 ? json({ message: 'The test could not be sent: MailChannels answered 400: bad' }, 502) : new Response('', { status })));
    const user = await fill('Spring update', '<p>Hello</p>');
    await user.type(testAddress(), 'owner@example.com');
    await user.click(testButton());
    await waitFor(() => expect(shownToasts()).toEqual(error('The test could not be sent: MailChannels answered 400: bad')));
    act(() => dismissToast());
    await waitFor(() => expect(shownToasts()).toEqual([]));
    status = 503;
    await user.click(testButton());
    await waitFor(() => expect(shownToasts()).toEqual(error('Failed to send the test')));
  });
});
