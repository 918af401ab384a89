import { describe, expect, it } from 'vitest';
import { firm } from '#core/content/firm';
import { looksLikeSensitiveNumber } from '#core/sensitive-numbers';

// docs/product.md §2 and §4: what the contact form and the chat take for a Social Security or account
// number (core/sensitive-numbers.ts), and the everyday numbers they must let pass without a word.

const matches: [string, string][] = [
  ['an SSN with dashes', 'My SSN is 123-45-6789, can you check?'],
  ['an SSN with spaces', 'ssn 123 45 6789'],
  ['an SSN as nine digits', 'it is 123456789'],
  ['an SSN at the very start and end', '078-05-1120'],
  ['an SSN with non-breaking spaces', 'SSN 123\u00a045\u00a06789'],
  ['an SSN followed by more numbers', 'SSN 123-45-6789 2026'],
  ['a card number in groups of four', 'card 4111 1111 1111 1111 exp 12/28'],
  ['a card number with dashes', '4111-1111-1111-1111'],
  ['an American Express number 4-6-5', 'amex 3782 822463 10005'],
  ['a card number followed by a year', '4111 1111 1111 1111 2026'],
  ['a 19-digit card number passing Luhn', 'card 4111111111111111110'],
  ['a bank account number of 8 digits', 'account 12345678'],
  ['a bank account number of 12 digits', 'acct #000123456789'],
  ['a bank account number of 17 digits', 'account 12345678901234567'],
  ['a 10-digit number that is no phone number', 'account 0123456789'],
  ['an 11-digit number that is no phone number', 'account 23456789012'],
  ['an 11-digit number after 1 that is no phone number', 'account 10123456789'],
  ['an account number after a routing number', 'routing 021000021 account 1234567812'],
  ['an account number on its own line', 'Hello\n55512345678\nthanks'],
];

const nonMatches: [string, string][] = [
  ['empty text', ''],
  ['a question without numbers', 'Do you prepare returns for small businesses?'],
  ["the firm's own phone", `I called ${firm.contact.phone} yesterday`],
  ["the firm's phone link", firm.contact.phoneHref],
  ['a phone number with parentheses', 'call me at (412) 555-0123'],
  ['a phone number with dashes', '412-555-0123'],
  ['a phone number with dots', '412.555.0123'],
  ['a phone number with spaces', '412 555 0123'],
  ['a phone number as ten digits', '4125550123'],
  ['a phone number with +1', '+14125550123'],
  ['a phone number with +1 and dashes', '+1-412-555-0123'],
  ['a phone number with 1 and spaces', '1 412 555 0123'],
  ['a phone number with an extension', '412-555-0123 ext 4567'],
  ['two phone numbers', '412-555-0123 or 724-555-0142'],
  ['a date with slashes', 'due 04/15/2026'],
  ['an ISO date', '2026-04-15'],
  ['a date as eight digits (YYYYMMDD)', 'invoice dated 20260415'],
  ['a date as eight digits (MMDDYYYY)', '04152026'],
  ['a ZIP code', 'Warrendale, PA 15086'],
  ['a ZIP+4 code', 'Warrendale, PA 15086-1234'],
  ['a year', 'my 2025 return'],
  ['a list of years', 'returns for 2021 2022 2023 2024'],
  ['a range of years', '2019-2025'],
  ['a money amount with a dollar sign', 'we made $12345678 last year'],
  ['a money amount with a space after the dollar sign', 'revenue of $ 123456789'],
  ['a money amount with separators', '$1,234,567.89'],
  ['a money amount with cents', 'paid 12345678.90 in tax'],
  ['a round money amount', 'about 25000000 in sales'],
  ['an SSN in the area never issued: 000', '000-12-3456'],
  ['an SSN in the area never issued: 666', '666123456'],
  ['an SSN in the area never issued: 9xx', '912-34-5678'],
  ['an SSN with group 00', '123-00-4567'],
  ['an SSN with serial 0000', '123 45 0000'],
  ['the last four digits of an SSN', 'SSN ending xxx-xx-6789'],
  ['an SSN shape with mixed separators', '123-45 6789'],
  ['a card shape failing Luhn', '4111 1111 1111 1112'],
  ['a grouped number too short for a card', '4111 1111'],
  ['a digit run longer than any account', '1'.repeat(25)],
  ['a 19-digit run failing Luhn', '1234567890123456789'],
  ['seven digits', 'order 1234567'],
  ['a routing number (nine digits outside the SSN ranges)', 'routing 021000021'],
  ['an EIN', 'EIN 12-3456789'],
];

describe('looksLikeSensitiveNumber', () => {
  it.each(matches)('matches %s', (_, text) => {
    expect(looksLikeSensitiveNumber(text)).toBe(true);
  });

  it.each(nonMatches)('does not match %s', (_, text) => {
    expect(looksLikeSensitiveNumber(text)).toBe(false);
  });

  // Run on every key press: long and hostile texts take one pass, never a backtracking search.
  it('answers at once on texts of 10,000 characters', () => {
    const texts = [
      '1'.repeat(10_000),
      '1 '.repeat(5_000),
      '1-'.repeat(5_000),
      '4111 '.repeat(2_000),
      '123-45-'.repeat(1_430),
      '12 '.repeat(3_333),
      '$1,'.repeat(3_333),
      'a'.repeat(10_000),
      `${'x '.repeat(4_990)}123-45-6789`,
    ];
    const started = performance.now();
    const answers = texts.map((text) => looksLikeSensitiveNumber(text));
    const elapsed = performance.now() - started;
    expect(answers).toEqual([false, false, false, false, false, false, false, false, true]);
    // A linear pass over 90,000 characters: a few milliseconds; generous for a loaded machine.
    expect(elapsed).toBeLessThan(500);
  });
});
