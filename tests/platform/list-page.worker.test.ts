import { describe, expect, it } from 'vitest';
import { listQuerySchema, LIST_PAGE_SIZE } from '#core/schemas/admin-list';
import { firmDayRange, likePattern, pageOffset } from '../../worker/services/platform/list-page';

// The searched admin lists' shared query and SQL helpers (core/schemas/admin-list.ts,
// worker/services/platform/list-page.ts).

const schema = listQuerySchema(['active', 'inactive']);

describe('the searched list query', () => {
  it('defaults to page 1 of an empty search', () => {
    expect(schema.parse({})).toEqual({ q: '', page: 1 });
  });

  it('takes the address strings as numbers and trims the search', () => {
    expect(schema.parse({ q: '  smith ', page: '3', status: 'active', from: '2026-03-01', to: '2026-03-31' })).toEqual({
      q: 'smith',
      page: 3,
      status: 'active',
      from: '2026-03-01',
      to: '2026-03-31',
    });
  });

  it.each([
    [{ page: '0' }, 'Page must be at least 1'],
    [{ page: '1.5' }, 'Page must be a whole number'],
    [{ page: 'two' }, 'Page must be a whole number'],
    [{ page: '100001' }, 'Page must be at most 100000'],
    [{ q: 'x'.repeat(201) }, 'Search must be at most 200 characters'],
    [{ status: 'deleted' }, 'Status must be one of: active, inactive'],
    [{ from: '2026-02-30' }, 'Please enter a valid date (YYYY-MM-DD)'],
    [{ to: '12/07/2026' }, 'Please enter a valid date (YYYY-MM-DD)'],
    [{ from: '2026-03-02', to: '2026-03-01' }, 'The start date must be on or before the end date'],
  ])('refuses %o with a message for people', (input, message) => {
    const result = schema.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.message)).toContain(message);
  });
});

describe('the list helpers', () => {
  it('takes the search text literally in a LIKE pattern', () => {
    expect(likePattern('50%_off\\')).toBe('%50\\%\\_off\\\\%');
    expect(likePattern('')).toBe('%%');
  });

  it('pages by LIST_PAGE_SIZE', () => {
    expect(pageOffset(1)).toBe(0);
    expect(pageOffset(3)).toBe(2 * LIST_PAGE_SIZE);
  });

  it('covers whole firm days across a daylight-saving change', () => {
    // 8 March 2026 is the US spring-forward day: EST (UTC-5) before, EDT (UTC-4) after.
    const { start, end } = firmDayRange('2026-03-07', '2026-03-08', 'America/New_York');
    expect(start?.toISOString()).toBe('2026-03-07T05:00:00.000Z');
    expect(end?.toISOString()).toBe('2026-03-09T04:00:00.000Z');
    expect(firmDayRange(undefined, undefined, 'America/New_York')).toEqual({ start: undefined, end: undefined });
  });
});
