import { describe, expect, it } from 'vitest';
import { indefiniteArticle, withArticle } from '#core/words';

// "an Individual Tax Return appointment" (docs/product.md §7): service names, towns and prices come
// from the content the firm edits, so the article is chosen by the first sound of whatever they are.
describe('a or an', () => {
  it.each([
    // by the first sound of a service name
    ['Individual Tax Return', 'an Individual Tax Return'],
    ['Estate Planning', 'an Estate Planning'],
    ['Accounting Services', 'an Accounting Services'],
    ['Outsourced CFO Services', 'an Outsourced CFO Services'],
    ['Bookkeeping', 'a Bookkeeping'],
    ['Tax Planning Consultation', 'a Tax Planning Consultation'],
    ['  Payroll ', 'a Payroll'],
    // abbreviations by the name of their first letter
    ['IRS Notice Resolution', 'an IRS Notice Resolution'],
    ['LLC Formation', 'an LLC Formation'],
    ['S Corporation Return', 'an S Corporation Return'],
    ['FBAR Filing', 'an FBAR Filing'],
    ['CPA firm', 'a CPA firm'],
    ['U.S. Expat Return', 'a U.S. Expat Return'],
    // numbers and prices as they are said
    ['1099 Filing', 'a 1099 Filing'],
    ['$80 initial consultation', 'an $80 initial consultation'],
    ['$150 initial consultation', 'a $150 initial consultation'],
    ['8-week plan', 'an 8-week plan'],
    ['11-month review', 'an 11-month review'],
    ['18,000 dollar question', 'an 18,000 dollar question'],
    ['180 day plan', 'a 180 day plan'],
    ['free consultation', 'a free consultation'],
  ])('%j reads with its article as %j', (phrase, expected) => {
    expect(withArticle(phrase)).toBe(expected);
  });

  it('vowels said as consonants, and an h nobody says', () => {
    for (const phrase of ['Unit review', 'Uniform filing', 'University tuition', 'European VAT', 'One-time review', 'Usual checkup']) expect(indefiniteArticle(phrase), phrase).toBe('a');
    for (const phrase of ['Hourly consultation', 'Honest review', 'Uninsured loss review', 'Upcoming audit']) expect(indefiniteArticle(phrase), phrase).toBe('an');
    expect(indefiniteArticle('Home office review')).toBe('a');
  });

  it('an empty name gets "a" and nothing breaks', () => {
    for (const phrase of ['', '   ', '—']) expect(indefiniteArticle(phrase), JSON.stringify(phrase)).toBe('a');
  });
});
