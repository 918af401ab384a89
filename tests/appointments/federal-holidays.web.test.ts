import { describe, expect, it } from 'vitest';
import { federalHolidayOn, federalHolidays, federalHolidaysBetween } from '#core/federal-holidays';

// The OPM's published federal holiday lists (opm.gov, "Federal Holidays"), observed dates.
describe('federal holidays (observed dates)', () => {
  it('matches the OPM list for 2026', () => {
    expect(federalHolidays(2026).map((h) => h.date)).toEqual([
      '2026-01-01',
      '2026-01-19',
      '2026-02-16',
      '2026-05-25',
      '2026-06-19',
      '2026-07-03', // Independence Day falls on a Saturday: observed Friday
      '2026-09-07',
      '2026-10-12',
      '2026-11-11',
      '2026-11-26',
      '2026-12-25',
    ]);
  });

  it('matches the OPM list for 2027, with New Year 2028 observed on Friday 31 December', () => {
    expect(federalHolidays(2027).map((h) => h.date)).toEqual([
      '2027-01-01',
      '2027-01-18',
      '2027-02-15',
      '2027-05-31',
      '2027-06-18', // Juneteenth on a Saturday: Friday
      '2027-07-05', // Independence Day on a Sunday: Monday
      '2027-09-06',
      '2027-10-11',
      '2027-11-11',
      '2027-11-25',
      '2027-12-24', // Christmas on a Saturday: Friday
      '2027-12-31', // 1 January 2028 is a Saturday
    ]);
    expect(federalHolidays(2028).map((h) => h.date)).not.toContain('2027-12-31');
    expect(federalHolidays(2028)[0].date).toBe('2028-01-17');
  });

  it('names the holiday on a date, and none on an ordinary day or the unobserved Saturday', () => {
    expect(federalHolidayOn('2026-11-26')?.name).toBe('Thanksgiving Day');
    expect(federalHolidayOn('2026-07-04')).toBeNull();
    expect(federalHolidayOn('2026-11-27')).toBeNull();
    expect(federalHolidaysBetween('2026-12-01', '2027-01-31').map((h) => h.date)).toEqual(['2026-12-25', '2027-01-01', '2027-01-18']);
  });
});
