// @vitest-environment happy-dom
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { emailField, nameField } from '#core/schemas/fields';
import { FieldError } from '../../web/components/ui/input';
import { useSchemaForm, type SchemaFormOptions } from '../../web/lib/use-schema-form';
import { deferred } from '../harness/web/form-harness';

// The one form pattern (web/lib/use-schema-form.ts, docs/architecture.md "Forms"): the shared
// schema's messages under the fields, the focus, pending, one submit at a time, a 400's field
// messages and a lazily loaded schema.

const schema = z.object({ name: nameField(), email: emailField() });
type Values = { name: string; email: string };
type Options = SchemaFormOptions<Values, typeof schema>;

function TestForm(props: Partial<Options> & Pick<Options, 'submit'>) {
  const form = useSchemaForm<Values, typeof schema>({ id: 'test', initial: { name: '', email: '' }, schema, ...props });
  return (
    <form ref={form.ref} onSubmit={form.handleSubmit} noValidate>
      <label htmlFor="test-name">Name</label>
      <input id="test-name" {...form.field('name')} {...form.described('name')} />
      <FieldError id={form.errorId('name')} message={form.errors.name} />
      <label htmlFor="test-email">Email</label>
      <input id="test-email" {...form.field('email')} {...form.described('email')} />
      <FieldError id={form.errorId('email')} message={form.errors.email} />
      {form.failure && <p data-testid="failure">{form.failure}</p>}
      <button type="submit">{form.pending ? 'Sending...' : 'Send'}</button>
    </form>
  );
}

const input = (label: string) => screen.getByLabelText<HTMLInputElement>(label);
const message = (field: string) => document.getElementById(`test-${field}-error`)?.textContent;
const send = (user: ReturnType<typeof userEvent.setup>) => user.click(screen.getByRole('button', { name: /Send/ }));

afterEach(cleanup);

describe('useSchemaForm', () => {
  it("shows the schema's messages under their fields, ties them with ARIA, focuses the first invalid field and sends nothing", async () => {
    const submit = vi.fn(async () => {});
    const onInvalid = vi.fn();
    render(<TestForm submit={submit} onInvalid={onInvalid} />);
    const user = userEvent.setup();
    await user.type(input('Email'), 'ann@');
    await send(user);
    await waitFor(() => expect(message('name')).toBe('Name is required'));
    expect(message('email')).toBe('Please enter a valid email address');
    expect(input('Name').getAttribute('aria-invalid')).toBe('true');
    expect(input('Name').getAttribute('aria-describedby')).toBe('test-name-error');
    expect(input('Email').getAttribute('aria-describedby')).toBe('test-email-error');
    expect(document.activeElement).toBe(input('Name'));
    expect(onInvalid).toHaveBeenCalledWith({ name: 'Name is required', email: 'Please enter a valid email address' }, 'Name is required');
    expect(submit).not.toHaveBeenCalled();
  });

  it('re-checks an edited field once submitted, and submits the parsed data', async () => {
    const submit = vi.fn(async () => {});
    render(<TestForm submit={submit} />);
    const user = userEvent.setup();
    await user.type(input('Name'), 'Ann');
    expect(message('name')).toBeUndefined();
    await user.clear(input('Name'));
    // Not yet submitted: an edit shows nothing.
    expect(message('name')).toBeUndefined();
    await send(user);
    await waitFor(() => expect(message('email')).toBe('Please enter a valid email address'));
    await user.type(input('Email'), 'ann@example');
    expect(message('email')).toBe('Please enter a valid email address');
    await user.type(input('Email'), '.com ');
    expect(message('email')).toBeUndefined();
    expect(message('name')).toBe('Name is required');
    await user.type(input('Name'), ' Ann ');
    expect(message('name')).toBeUndefined();
    await send(user);
    await waitFor(() => expect(submit).toHaveBeenCalledWith({ name: 'Ann', email: 'ann@example.com' }, { name: ' Ann ', email: 'ann@example.com ' }));
  });

  it('is pending while the submit runs, and sends once however often it is pressed', async () => {
    const answer = deferred<void>();
    const submit = vi.fn(() => answer.promise);
    render(<TestForm submit={submit} initial={{ name: 'Ann', email: 'ann@example.com' }} />);
    const user = userEvent.setup();
    await send(user);
    await screen.findByRole('button', { name: 'Sending...' });
    await send(user);
    expect(submit).toHaveBeenCalledTimes(1);
    await act(async () => answer.resolve());
    await screen.findByRole('button', { name: 'Send' });
    await send(user);
    await waitFor(() => expect(submit).toHaveBeenCalledTimes(2));
  });

  it("puts a 400 answer's field messages under their fields; any other failure goes to onError alone", async () => {
    let failure: unknown = { status: 400, body: { message: 'Invalid input', fields: { email: ['This address cannot receive mail'], other: ['ignored'] } } };
    const onError = vi.fn();
    render(<TestForm initial={{ name: 'Ann', email: 'ann@example.com' }} submit={() => Promise.reject(failure)} onError={onError} />);
    const user = userEvent.setup();
    await send(user);
    await waitFor(() => expect(message('email')).toBe('This address cannot receive mail'));
    expect(message('name')).toBeUndefined();
    expect(document.activeElement).toBe(input('Email'));
    expect(onError).toHaveBeenLastCalledWith(failure, { email: 'This address cannot receive mail' });

    failure = { status: 429, body: { message: 'Too many' } };
    await send(user);
    await waitFor(() => expect(onError).toHaveBeenCalledTimes(2));
    expect(onError).toHaveBeenLastCalledWith(failure, {});
    expect(message('email')).toBeUndefined();
  });

  it('keeps a message for the whole form until the next submit', async () => {
    const answer = vi.fn().mockRejectedValueOnce(new Error('offline')).mockResolvedValue(undefined);
    function WithFailureLine() {
      const form = useSchemaForm({
        id: 'line',
        initial: { name: 'Ann' },
        schema: z.object({ name: nameField() }),
        submit: answer,
        onError: (error) => {
          form.setFailure(error instanceof Error ? error.message : 'failed');
        },
      });
      return (
        <form onSubmit={form.handleSubmit}>
          {form.failure && <p role="alert">{form.failure}</p>}
          <button type="submit">Send</button>
        </form>
      );
    }
    render(<WithFailureLine />);
    const user = userEvent.setup();
    await send(user);
    expect((await screen.findByRole('alert')).textContent).toBe('offline');
    await send(user);
    await waitFor(() => expect(answer).toHaveBeenCalledTimes(2));
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
  });

  it('loads a lazy schema with the first submit, once', async () => {
    const load = vi.fn(async () => schema);
    const submit = vi.fn(async () => {});
    render(<TestForm schema={load} submit={submit} />);
    expect(load).not.toHaveBeenCalled();
    const user = userEvent.setup();
    await send(user);
    await waitFor(() => expect(message('name')).toBe('Name is required'));
    // The loaded schema re-checks edits at once.
    await user.type(input('Name'), 'Ann');
    expect(message('name')).toBeUndefined();
    await user.type(input('Email'), 'ann@example.com');
    await send(user);
    await waitFor(() => expect(submit).toHaveBeenCalledOnce());
    expect(load).toHaveBeenCalledOnce();
  });

  it('reports a schema that cannot load to onLoadError, and tries again on the next submit', async () => {
    const load = vi.fn().mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module')).mockResolvedValue(schema);
    const onLoadError = vi.fn();
    render(<TestForm schema={load} submit={async () => {}} onLoadError={onLoadError} />);
    const user = userEvent.setup();
    await send(user);
    await waitFor(() => expect(onLoadError).toHaveBeenCalledOnce());
    expect(message('name')).toBeUndefined();
    await send(user);
    await waitFor(() => expect(message('name')).toBe('Name is required'));
    expect(load).toHaveBeenCalledTimes(2);
  });
});
