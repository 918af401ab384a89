import { firm } from '#core/content/firm';
import { currentTaxYear, taxYearStanding } from '#core/content/tax-year';

// The Resources screen's reminder (docs/product.md §1.4):
// when the published facts' tax year is behind the year whose returns are being filed
// (core/content/tax-year.ts), the owner reads it above the form. Nothing when they are current.

export function TaxYearNotice({ taxYear, now = new Date() }: { taxYear: number; now?: Date }) {
  const standing = taxYearStanding(taxYear, now, firm.timeZone);
  if (standing === 'current') return null;
  const current = currentTaxYear(now, firm.timeZone);
  return (
    <p role="status" data-testid="tax-year-notice" className="rounded-md border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950">
      {standing === 'outdated' ? 'The tax facts are out of date: ' : 'Time to update the tax facts: '}
      the Resources page states figures for the {taxYear} tax year, and returns for {current} are being filed now. Check each fact against the IRS and
      Pennsylvania Department of Revenue figures for {current}, change the tax year and the facts below, then publish.
    </p>
  );
}
