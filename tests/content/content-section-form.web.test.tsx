// @vitest-environment happy-dom
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { defaultContent } from '#core/content/default-content';
import { firm } from '#core/content/firm';
import { currentTaxYear } from '#core/content/tax-year';
import type { ContentState } from '../../web/features/content-admin/content-api';
import { SectionEditor } from '../../web/features/content-admin/section-editor';
import { TaxYearNotice } from '../../web/features/content-admin/tax-year-notice';
import { sectionBySlug } from '../../web/features/content-admin/sections';
import { captureFetch, json, renderForm, shownToasts, type SentRequest } from '../harness/web/form-harness';

// docs/product.md §6.6, the content screens: a section's form checks the shared schema before it
// sends, shows a 400's messages on their fields, keeps the admin's edits through a 409 and says
// what changed, and reorders lists.

const published = (version = 1): ContentState['published'] => ({ version, publishedAt: null, publishedBy: null, content: structuredClone(defaultContent) });
const noDraft = (): ContentState => ({ published: published(), draft: null });

function open(slug: string, state: ContentState = noDraft(), reload = vi.fn(async () => state)) {
  const section = sectionBySlug(slug);
  if (!section) throw new Error(slug);
  renderForm(
    <MemoryRouter>
      <SectionEditor section={section} state={state} reload={reload} />
    </MemoryRouter>,
  );
  return { user: userEvent.setup(), reload };
}

const saveDraft = (user: ReturnType<typeof userEvent.setup>) => user.click(screen.getByRole('button', { name: 'Save draft' }));
const puts = (sent: SentRequest[]) => sent.filter((r) => r.method === 'PUT' && r.url.endsWith('/api/admin/content/draft'));
const draftAnswer = (request: SentRequest) => {
  const body = request.body as { basedOn: number; content: unknown };
  return json({ basedOn: body.basedOn, updatedAt: '2026-11-26T17:00:00.000Z', updatedBy: 'admin', content: body.content });
};

const valueOf = (element: HTMLElement) => (element as HTMLInputElement).value;

/** The message tied to an input by aria-describedby. */
const describedBy = (input: HTMLElement) =>
  (input.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent)
    .join(' ');

describe('a content section form', { timeout: 30_000 }, () => {
  it("shows the shared schema's messages on their fields and sends nothing while one is wrong", async () => {
    const sent = captureFetch(() => json({}, 500));
    const { user } = open('firm');
    const email = screen.getByLabelText('Email');
    await user.clear(email);
    await user.type(email, 'not-an-address');
    const phoneLink = screen.getByLabelText('Phone link');
    await user.clear(phoneLink);
    await user.type(phoneLink, '724-555-0142');
    await saveDraft(user);
    await waitFor(() => expect(email.getAttribute('aria-invalid')).toBe('true'));
    expect(describedBy(email)).toContain('Please enter a valid email address');
    expect(describedBy(phoneLink)).toContain('Phone link must be a tel: link such as tel:+17245550142');
    expect(sent).toEqual([]);
    await waitFor(() => expect(shownToasts()).toEqual([{ variant: 'destructive', title: 'Not saved', description: 'Please correct the highlighted fields.' }]));
  });

  it("shows the server's 400 messages, keyed content.<path>, on their fields", async () => {
    captureFetch(() => json({ message: 'Tagline is too long', fields: { 'content.firm.tagline': ['Tagline is too long (the server says)'] } }, 400));
    const { user } = open('firm');
    await saveDraft(user);
    const tagline = screen.getByLabelText('Tagline');
    await waitFor(() => expect(describedBy(tagline)).toContain('Tagline is too long (the server says)'));
    expect(tagline.getAttribute('aria-invalid')).toBe('true');
  });

  it('on a 409 says who published what, keeps the typed edits, and applies them to the latest version on request', async () => {
    let answer: (r: SentRequest) => Response = () =>
      json({ message: 'stale', current: { version: 3, publishedAt: '2026-11-26T16:12:00.000Z', publishedBy: 'olga' } }, 409);
    const sent = captureFetch((r) => answer(r));
    const latest = structuredClone(defaultContent);
    latest.firm.tagline = 'Changed by version 3';
    const { user, reload } = open('firm', noDraft(), vi.fn(async () => ({ published: { version: 3, publishedAt: '2026-11-26T16:12:00.000Z', publishedBy: 'olga', content: latest }, draft: null })));
    const phone = screen.getByLabelText('Phone');
    await user.clear(phone);
    await user.type(phone, '(724) 555-0199');
    await saveDraft(user);

    const alert = await screen.findByTestId('content-conflict');
    expect(alert.textContent).toMatch(/Version 3 was published by olga on Nov 26, 2026, 11:12\sAM ET while you were editing\./);
    expect(valueOf(screen.getByLabelText('Phone'))).toBe('(724) 555-0199');

    answer = draftAnswer;
    await user.click(within(alert).getByRole('button', { name: 'Apply my edits to the latest version' }));
    await waitFor(() => expect(screen.queryByTestId('content-conflict')).toBeNull());
    expect(reload).toHaveBeenCalled();
    expect(valueOf(screen.getByLabelText('Phone'))).toBe('(724) 555-0199');
    await saveDraft(user);
    await waitFor(() => expect(puts(sent)).toHaveLength(2));
    const body = puts(sent)[1].body as { basedOn: number; draftUpdatedAt: string | null; content: typeof defaultContent };
    expect(body.basedOn).toBe(3);
    expect(body.content.firm.contact.phone).toBe('(724) 555-0199');
    // The other fields come from version 3, not from the copy the form was opened on.
    expect(body.content.firm.tagline).toBe('Changed by version 3');
  });

  it('on a 409 for a draft saved elsewhere, discarding reloads the latest draft into the form', async () => {
    captureFetch(() => json({ message: 'draft changed', draft: { updatedAt: '2026-11-26T16:30:00.000Z', updatedBy: 'olga' } }, 409));
    const theirs = structuredClone(defaultContent);
    theirs.booking.serviceTypes[0] = 'Their service';
    const { user } = open('booking', noDraft(), vi.fn(async () => ({ published: published(), draft: { basedOn: 1, revision: 2, updatedAt: '2026-11-26T16:30:00.000Z', updatedBy: 'olga', content: theirs } })));
    const first = screen.getByLabelText('Service type 1');
    await user.clear(first);
    await user.type(first, 'Mine');
    await saveDraft(user);
    const alert = await screen.findByTestId('content-conflict');
    expect(alert.textContent).toMatch(/The draft was saved by olga on Nov 26, 2026/);
    expect(valueOf(screen.getByLabelText('Service type 1'))).toBe('Mine');
    await user.click(within(alert).getByRole('button', { name: 'Discard my edits and reload' }));
    await waitFor(() => expect(valueOf(screen.getByLabelText('Service type 1'))).toBe('Their service'));
  });

  it('moves a list entry up and down, adds and removes entries, and saves the new order', async () => {
    const sent = captureFetch(draftAnswer);
    const { user } = open('booking');
    const [first, second] = defaultContent.booking.serviceTypes;
    await user.click(screen.getByRole('button', { name: 'Move service type 1 down' }));
    expect(valueOf(screen.getByLabelText('Service type 1'))).toBe(second);
    expect(valueOf(screen.getByLabelText('Service type 2'))).toBe(first);
    // The focus follows the entry moved.
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Move service type 2 down' }));
    await user.click(screen.getByRole('button', { name: 'Add service type' }));
    const count = defaultContent.booking.serviceTypes.length;
    await user.type(screen.getByLabelText(`Service type ${count + 1}`), 'Estate Planning');
    await user.click(screen.getByRole('button', { name: 'Remove service type 3' }));
    await saveDraft(user);
    await waitFor(() => expect(puts(sent)).toHaveLength(1));
    const expected = [second, first, ...defaultContent.booking.serviceTypes.slice(3), 'Estate Planning'];
    expect((puts(sent)[0].body as { content: typeof defaultContent }).content.booking.serviceTypes).toEqual(expected);
    expect(puts(sent)[0].body).toMatchObject({ basedOn: 1, draftUpdatedAt: null });
    await waitFor(() => expect(shownToasts()).toEqual([{ variant: 'default', title: 'Draft saved', description: 'Publish it on the Site content page to make it live.' }]));
  });

  it("tells the owner on the Resources screen when the published tax facts' year is behind, and only there", async () => {
    const state = noDraft();
    state.published.content.resources.taxFacts.taxYear = 2020;
    open('resources', state);
    expect((await screen.findByTestId('tax-year-notice')).textContent).toMatch(/^The tax facts are out of date: the Resources page states figures for the 2020 tax year/);
    cleanup();
    open('firm', state);
    expect(screen.queryByTestId('tax-year-notice')).toBeNull();
    cleanup();
    const current = noDraft();
    current.published.content.resources.taxFacts.taxYear = currentTaxYear(new Date(), firm.timeZone);
    open('resources', current);
    expect(screen.getByLabelText('Tax year')).toBeTruthy();
    expect(screen.queryByTestId('tax-year-notice')).toBeNull();
  });
});

describe("the Resources screen's tax-year notice (dates passed in)", () => {
  const notice = (taxYear: number, iso: string) => {
    const { container, unmount } = render(<TaxYearNotice taxYear={taxYear} now={new Date(iso)} />);
    const text = container.textContent;
    unmount();
    return text;
  };

  it('is silent through the facts’ own filing season, asks for an update in the next, and says out of date after', () => {
    expect(notice(2025, '2026-12-31T23:59:00-05:00')).toBe('');
    expect(notice(2026, '2026-03-01T12:00:00-05:00')).toBe('');
    expect(notice(2025, '2027-01-01T00:00:00-05:00')).toBe(
      'Time to update the tax facts: the Resources page states figures for the 2025 tax year, and returns for 2026 are being filed now. Check each fact against the IRS and Pennsylvania Department of Revenue figures for 2026, change the tax year and the facts below, then publish.',
    );
    expect(notice(2025, '2028-02-01T12:00:00-05:00')).toMatch(/^The tax facts are out of date: the Resources page states figures for the 2025 tax year, and returns for 2027 are being filed now\./);
  });
});
