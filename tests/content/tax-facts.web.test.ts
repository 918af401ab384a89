import { describe, expect, it } from 'vitest';
import { defaultContent } from '#core/content/default-content';
import { firm } from '#core/content/firm';
import { taxFactChecks, taxFacts, taxFactsYear } from '#core/content/tax-facts';
import { currentTaxYear, taxYearStanding } from '#core/content/tax-year';
import { isCalendarDate } from '#core/firm-time';

// The default 'Did You Know' facts are figures a firm states to its clients (docs/product.md
// §1.4): each carries the official publications it was checked
// against and the day, and their year may never be two filing seasons old.

const ZONE = 'America/New_York';
const at = (iso: string) => new Date(iso);

/** irs.gov and the Commonwealth of Pennsylvania's sites (revenue.pa.gov, dced.pa.gov), https only. */
const officialHost = (host: string) => host === 'irs.gov' || host.endsWith('.irs.gov') || host === 'pa.gov' || host.endsWith('.pa.gov');

describe('the current tax year and how far behind a year of facts is', () => {
  it('is the year whose returns are being filed: the calendar year in the firm’s zone minus one', () => {
    expect(currentTaxYear(at('2026-12-07T12:00:00-05:00'), ZONE)).toBe(2025);
    expect(currentTaxYear(at('2026-04-15T12:00:00-04:00'), ZONE)).toBe(2025);
    expect(currentTaxYear(at('2026-10-15T23:59:00-04:00'), ZONE)).toBe(2025);
    // New Year's Eve 11:30 PM in New York is already 1 January in UTC: still 2025 for the firm.
    expect(currentTaxYear(at('2027-01-01T04:30:00Z'), ZONE)).toBe(2025);
    expect(currentTaxYear(at('2027-01-01T00:00:00-05:00'), ZONE)).toBe(2026);
  });

  it('calls facts current up to their filing season, behind for the next one, outdated after', () => {
    expect(taxYearStanding(2025, at('2026-01-01T00:00:00-05:00'), ZONE)).toBe('current');
    expect(taxYearStanding(2025, at('2026-12-31T23:59:00-05:00'), ZONE)).toBe('current');
    // Next year's figures published early are current too.
    expect(taxYearStanding(2026, at('2026-06-01T12:00:00-04:00'), ZONE)).toBe('current');
    expect(taxYearStanding(2025, at('2027-01-01T00:00:00-05:00'), ZONE)).toBe('behind');
    expect(taxYearStanding(2025, at('2027-12-31T23:59:00-05:00'), ZONE)).toBe('behind');
    expect(taxYearStanding(2025, at('2028-01-01T00:00:00-05:00'), ZONE)).toBe('outdated');
    expect(taxYearStanding(2020, at('2026-06-01T12:00:00-04:00'), ZONE)).toBe('outdated');
  });
});

describe('the default tax facts', () => {
  it('are the content document’s defaults, ten of them, each with its check', () => {
    expect(defaultContent.resources.taxFacts).toEqual({ taxYear: taxFactsYear, facts: [...taxFacts] });
    expect(taxFacts).toHaveLength(10);
    expect(taxFactChecks).toHaveLength(taxFacts.length);
  });

  it('each name an official source (https on irs.gov or a pa.gov site) and the day they were checked', () => {
    taxFactChecks.forEach((check, index) => {
      const fact = `fact ${index + 1}: ${taxFacts[index]}`;
      expect(check.sources.length, fact).toBeGreaterThan(0);
      for (const source of check.sources) {
        expect(source.publication.trim(), fact).not.toBe('');
        const url = new URL(source.url);
        expect(url.protocol, `${fact} ${source.url}`).toBe('https:');
        expect(officialHost(url.hostname), `${fact} ${source.url}`).toBe(true);
      }
      expect(isCalendarDate(check.checkedOn), `${fact} checkedOn ${check.checkedOn}`).toBe(true);
      // Checked once the year's figures were out, and not on a day still to come (a typo).
      expect(Number(check.checkedOn.slice(0, 4)), fact).toBeGreaterThanOrEqual(taxFactsYear);
      expect(check.checkedOn <= new Date().toISOString().slice(0, 10), fact).toBe(true);
    });
  });

  it('state the figures that were checked, as checked (a changed figure needs a new check)', () => {
    taxFactChecks.forEach((check, index) => {
      for (const figure of check.figures) expect(taxFacts[index], `fact ${index + 1}`).toContain(figure);
    });
  });

  it('state the 2025 figures of the July 2025 law and of the IRS’s 2025 adjustments', () => {
    const joined = taxFacts.join('\n');
    expect(joined).toContain('$15,750 for single filers, $31,500 for married couples filing jointly and $23,625 for heads of household');
    expect(joined).toContain('$2,000 if single or head of household, or $1,600 for each eligible spouse');
    expect(joined).not.toMatch(/\$15,000|\$30,000/);
    // SPEC.md's senior figures ($2,050 / $1,650) are 2026's and are stated as such, never as 2025's.
    expect(joined).toContain('rising to $2,050 and $1,650 in 2026');
    expect(joined).not.toMatch(/\$2,050 if single/);
  });

  it('are for a tax year no more than a year behind the firm’s current tax year, today', () => {
    expect(taxYearStanding(taxFactsYear, new Date(), firm.timeZone)).not.toBe('outdated');
  });
});
