import { describe, expect, it } from 'vitest';
import type { ZodType } from 'zod';
import { createAppointmentSchema } from '#core/schemas/appointments';
import { contactSchema } from '#core/schemas/contact';
import { newsletterSubscribeSchema, testEmailSchema } from '#core/schemas/newsletter';

// The field rules the forms share (core/schemas/fields.ts): every form with the field gives the
// same messages of docs/product.md §9, and the API's `fields` lists each problem once.

const valid = {
  contact: { name: 'Jane Visitor', email: 'jane@example.com', message: 'Hello there, firm.' },
  booking: { name: 'Sam Client', email: 'sam@example.com', serviceType: 'Payroll Services', date: '2026-11-24', timeSlot: '9:00 AM' },
  newsletter: { email: 'reader@example.com' },
};
const forms: [string, ZodType, Record<string, unknown>][] = [
  ['contact', contactSchema, valid.contact],
  ['booking', createAppointmentSchema('America/New_York', () => new Date('2026-11-23T15:00:00Z')), valid.booking],
  ['newsletter sign-up', newsletterSubscribeSchema, valid.newsletter],
];

/** The messages of one field, as the API's `fields` would list them; [] when the input passes. */
function messagesOf(schema: ZodType, input: unknown, field: string): string[] {
  const result = schema.safeParse(input);
  return result.success ? [] : result.error.issues.filter((issue) => issue.path[0] === field).map((issue) => issue.message);
}

const tooLongAddress = `${'a'.repeat(250)}@example.com`;
const badAddresses: [string, unknown][] = [
  ['missing', undefined],
  ['not a string', 42],
  ['blank', '   '],
  ['without a domain', 'sam@'],
  ['longer than 254 characters', tooLongAddress],
  ['longer than 254 characters and malformed', 'x'.repeat(300)],
];

describe.each(forms)('%s form: shared field rules', (_form, schema, base) => {
  it.each(badAddresses)('answers one "Please enter a valid email address" for an e-mail that is %s', (_case, email) => {
    expect(messagesOf(schema, { ...base, email }, 'email')).toEqual(['Please enter a valid email address']);
  });

  it('accepts a 254-character address and trims it', () => {
    const address = `${'a'.repeat(242)}@example.com`;
    expect(address).toHaveLength(254);
    const result = schema.safeParse({ ...base, email: `  ${address} ` });
    expect(result.success && (result.data as { email: string }).email).toBe(address);
  });

  it('limits a name to 100 characters with the same message', () => {
    expect(messagesOf(schema, { ...base, name: 'n'.repeat(100) }, 'name')).toEqual([]);
    expect(messagesOf(schema, { ...base, name: 'n'.repeat(101) }, 'name')).toEqual(['Name must be at most 100 characters']);
  });
});

describe('a required name (contact and booking forms)', () => {
  it.each(forms.slice(0, 2))('%s: missing or blank is "Name is required"', (_form, schema, base) => {
    for (const name of [undefined, '', '   ', 7]) expect(messagesOf(schema, { ...base, name }, 'name')).toEqual(['Name is required']);
  });

  it('is optional on the newsletter sign-up, where a blank one counts as not given', () => {
    const result = newsletterSubscribeSchema.safeParse({ email: 'reader@example.com', name: '   ' });
    expect(result.success && result.data.name).toBeUndefined();
  });
});

describe("the admin's test e-mail", () => {
  it.each([undefined, '', '   '])('asks for an address when it is %j', (testEmail) => {
    expect(messagesOf(testEmailSchema, { testEmail }, 'testEmail')).toEqual(['Please enter an email address']);
  });

  it.each([
    ['a malformed address', 'sam@'],
    ['an address longer than 254 characters', tooLongAddress],
  ])('refuses %s like the forms do', (_case, testEmail) => {
    expect(messagesOf(testEmailSchema, { testEmail }, 'testEmail')).toEqual(['Please enter a valid email address']);
  });
});
