import { describe, expect, it } from 'vitest';
import { indefiniteArticle, withArticle } from '#core/words';

// "an Individual Tax Return appointment" (docs/product.md §7): service names, towns and prices come
// from the content the firm edits, so the article is chosen by the first sound of whatever they are.
describe('a or an', () => {
  it('by the first sound of a service name', () => {
    expect(withArticle('Individual Tax Return')).toBe('an Individual Tax Return');
    expect(withArticle('Estate Planning')).toBe('an Estate Planning');
    expect(withArticle('Accounting Services')).toBe('an Accounting Services');
    expect(withArticle('Outsourced CFO Services')).toBe('an Outsourced CFO Services');
    expect(withArticle('Bookkeeping')).toBe('a Bookkeeping');
    expect(withArticle('Tax Planning Consultation')).toBe('a Tax Planning Consultation');
    expect(withArticle('  Payroll ')).toBe('a Payroll');
  });

  it('vowels said as consonants, and an h nobody says', () => {
    for (const phrase of ['Unit review', 'Uniform filing', 'University tuition', 'European VAT', 'One-time review', 'Usual checkup']) expect(indefiniteArticle(phrase), phrase).toBe('a');
    for (const phrase of ['Hourly consultation', 'Honest review', 'Uninsured loss review', 'Upcoming audit']) expect(indefiniteArticle(phrase), phrase).toBe('an');
    expect(indefiniteArticle('Home office review')).toBe('a');
  });

  it('abbreviations by the name of their first letter', () => {
    expect(withArticle('IRS Notice Resolution')).toBe('an IRS Notice Resolution');
    expect(withArticle('LLC Formation')).toBe('an LLC Formation');
    expect(withArticle('S Corporation Return')).toBe('an S Corporation Return');
    expect(withArticle('FBAR Filing')).toBe('an FBAR Filing');
    expect(withArticle('CPA firm')).toBe('a CPA firm');
    expect(withArticle('U.S. Expat Return')).toBe('a U.S. Expat Return');
  });

  it('numbers and prices as they are said', () => {
    expect(withArticle('1099 Filing')).toBe('a 1099 Filing');
    expect(withArticle('$80 initial consultation')).toBe('an $80 initial consultation');
    expect(withArticle('$150 initial consultation')).toBe('a $150 initial consultation');
    expect(withArticle('8-week plan')).toBe('an 8-week plan');
    expect(withArticle('11-month review')).toBe('an 11-month review');
    expect(withArticle('18,000 dollar question')).toBe('an 18,000 dollar question');
    expect(withArticle('180 day plan')).toBe('a 180 day plan');
    expect(withArticle('free consultation')).toBe('a free consultation');
  });

  it('an empty name gets "a" and nothing breaks', () => {
    expect(indefiniteArticle('')).toBe('a');
    expect(indefiniteArticle('   ')).toBe('a');
    expect(indefiniteArticle('—')).toBe('a');
  });
});
