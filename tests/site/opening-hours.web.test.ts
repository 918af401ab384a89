import { describe, expect, it } from 'vitest';
import { defaultContent } from '#core/content/default-content';
import { accountingServiceJsonLd, openingHours } from '../../web/features/home/structured-data';

// The home page's business data states the office hours the firm published (docs/product.md §1.3),
// read from the free-text hours; none at all when a line cannot be read, rather than wrong ones.
describe('opening hours in the structured business data', () => {
  it('states the default hours as Monday to Friday, 09:00 to 17:00, leaving out the closed weekend', () => {
    expect(accountingServiceJsonLd(defaultContent).openingHoursSpecification).toEqual([
      { '@type': 'OpeningHoursSpecification', dayOfWeek: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'], opens: '09:00', closes: '17:00' },
    ]);
  });

  it('follows edited hours: ranges, single days, lists, minutes and "to"', () => {
    expect(
      openingHours([
        { days: 'Monday - Thursday', time: '8:30 AM - 6 PM' },
        { days: 'Friday', time: '8:30 AM to 12:00 PM' },
        { days: 'Saturday, Sunday', time: 'Closed' },
      ]).openingHoursSpecification,
    ).toEqual([
      { '@type': 'OpeningHoursSpecification', dayOfWeek: ['Monday', 'Tuesday', 'Wednesday', 'Thursday'], opens: '08:30', closes: '18:00' },
      { '@type': 'OpeningHoursSpecification', dayOfWeek: ['Friday'], opens: '08:30', closes: '12:00' },
    ]);
    expect(openingHours([{ days: 'Saturday', time: '10 AM - 2 PM' }, { days: 'Tuesday, Thursday', time: '12 PM - 12:30 PM' }]).openingHoursSpecification).toEqual([
      { '@type': 'OpeningHoursSpecification', dayOfWeek: ['Saturday'], opens: '10:00', closes: '14:00' },
      { '@type': 'OpeningHoursSpecification', dayOfWeek: ['Tuesday', 'Thursday'], opens: '12:00', closes: '12:30' },
    ]);
  });

  it.each([
    [{ days: 'Weekdays', time: '9:00 AM - 5:00 PM' }],
    [{ days: 'Monday - Friday', time: 'By appointment' }],
    [{ days: 'Friday - Monday', time: '9:00 AM - 5:00 PM' }],
    [{ days: 'Monday - Friday', time: '9:00 - 17:00' }],
  ])('states no hours when a line cannot be read (%o)', (line) => {
    const hours = [{ days: 'Saturday', time: '10 AM - 2 PM' }, line];
    expect(openingHours(hours)).toEqual({});
    expect(accountingServiceJsonLd({ ...defaultContent, firm: { ...defaultContent.firm, hours } })).not.toHaveProperty('openingHoursSpecification');
  });
});
