import { firmDateParts } from '../firm-time';

// When the Resources page's tax facts are out of date (docs/product.md §1.4): one rule, read by the test that keeps the default facts current
// (tests/content/tax-facts.web.test.ts) and by the back office's notice on the Resources screen.

/**
 * The firm's current tax year: the year whose returns are being filed, the firm's calendar year
 * minus one. On any day of 2026 in the firm's time zone (filing season for 2025 returns, and the
 * extension filings to October 15) it is 2025; from 1 January 2027 it is 2026.
 */
export function currentTaxYear(at: Date, timeZone: string): number {
  return firmDateParts(timeZone, at).year - 1;
}

/**
 * How the facts' year stands against the current tax year:
 * - 'current': the current tax year or later (a firm may publish next year's figures early);
 * - 'behind': one year behind, the filing season after theirs (the firm should update them);
 * - 'outdated': more than a year behind, two filing seasons old (the default facts may never be).
 */
export type TaxYearStanding = 'current' | 'behind' | 'outdated';

export function taxYearStanding(factsYear: number, at: Date, timeZone: string): TaxYearStanding {
  const current = currentTaxYear(at, timeZone);
  if (factsYear >= current) return 'current';
  return factsYear === current - 1 ? 'behind' : 'outdated';
}
