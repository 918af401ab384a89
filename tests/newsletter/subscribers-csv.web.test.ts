import { describe, expect, it } from 'vitest';
import {
  buildSubscribersCsv,
  neutraliseFormula,
  quoteCsvField,
  subscribersCsvFileName,
} from '../../web/features/admin/lib/subscribers-csv';
import { parseCsv } from '../harness/web/csv-reader';

const sub = (email: string, name: string | null, active = 'true', subscriptionDate = '2026-11-20T15:04:05.000Z') => ({
  email,
  name,
  subscriptionDate,
  active,
});

describe('subscribers CSV', () => {
  it('writes exactly Email, Name, Subscription Date, Status, every field quoted, with Active / Inactive', () => {
    const csv = buildSubscribersCsv([sub('a@example.com', 'Ann'), sub('b@example.com', null, 'false')]);
    expect(csv).toBe(
      '"Email","Name","Subscription Date","Status"\r\n"a@example.com","Ann","2026-11-20","Active"\r\n"b@example.com","","2026-11-20","Inactive"\r\n',
    );
  });

  it('writes a suppressed (bounced or complained) subscriber as Inactive, with no extra column', () => {
    const rows = parseCsv(
      buildSubscribersCsv([
        { ...sub('x@example.com', null, 'false'), suppressionReason: 'bounced' },
        { ...sub('y@example.com', 'Yan', 'false'), suppressionReason: 'complained' },
        // Even were the active flag left set, a suppressed address receives nothing.
        { ...sub('z@example.com', 'Zed', 'true'), suppressionReason: 'bounced' },
      ]),
    );
    expect(rows).toEqual([
      ['Email', 'Name', 'Subscription Date', 'Status'],
      ['x@example.com', '', '2026-11-20', 'Inactive'],
      ['y@example.com', 'Yan', '2026-11-20', 'Inactive'],
      ['z@example.com', 'Zed', '2026-11-20', 'Inactive'],
    ]);
  });

  it('quotes commas, quotes and line breaks per RFC 4180 and parses back to the same cells', () => {
    const tricky = 'Smith "Jr."\nline two';
    const csv = buildSubscribersCsv([sub('c@example.com', tricky)]);
    expect(csv).toContain('"Smith ""Jr.""\nline two"');
    expect(parseCsv(csv)[1]).toEqual(['c@example.com', tricky, '2026-11-20', 'Active']);
  });

  it.each(['=HYPERLINK("http://evil")', '+1+1', '-2+3', '@SUM(A1)', '\t=1', '\r=1', ' =1', '  @SUM(A1)', '\n=1'])('neutralises a formula cell %j', (name) => {
    const rows = parseCsv(buildSubscribersCsv([sub('d@example.com', name)]));
    expect(rows[1][1]).toBe(`'${name}`);
  });

  it.each([
    ["x;=cmd|' /C calc'!A0", "x;'=cmd|' /C calc'!A0"],
    ['x,=1+1', "x,'=1+1"],
    ['a; @SUM(A1)', "a;' @SUM(A1)"],
    ['Smith, -Jr', "Smith,' -Jr"],
    ['=1;+2,-3', "'=1;'+2,'-3"],
  ])('neutralises a formula after a ; or , inside a cell %j', (name, safe) => {
    const csv = buildSubscribersCsv([sub('f@example.com', name)]);
    expect(parseCsv(csv)[1][1]).toBe(safe);
    // Quoted too, so a reader that splits on , or ; still never sees a cell starting with a formula.
    expect(csv).toContain(`"${safe.replaceAll('"', '""')}"`);
  });

  it.each([
    ['Ann-Marie', 'Ann-Marie'],
    ['a=b', 'a=b'],
    ['Smith, Jr.; CPA', 'Smith, Jr.; CPA'],
    ['', ''],
  ])('leaves ordinary text alone and only prefixes where a cell could begin: %j', (input, expected) => {
    expect(neutraliseFormula(input)).toBe(expected);
  });

  it.each([
    ['plain', '"plain"'],
    ['', '""'],
    ['a"b', '"a""b"'],
  ])('quotes every cell, doubling its quotes: %j', (input, expected) => {
    expect(quoteCsvField(input)).toBe(expected);
  });

  it('keeps every subscriber of a large list', () => {
    const many = Array.from({ length: 10_000 }, (_, i) => sub(`s${i}@example.com`, `Name ${i}`, i % 3 ? 'true' : 'false'));
    const rows = parseCsv(buildSubscribersCsv(many));
    expect(rows).toHaveLength(10_001);
    expect(rows[10_000]).toEqual(['s9999@example.com', 'Name 9999', '2026-11-20', 'Inactive']);
    expect(rows[10_000 - 1]).toEqual(['s9998@example.com', 'Name 9998', '2026-11-20', 'Active']);
  });

  it('writes the subscription day as the firm (Eastern time) saw it', () => {
    const rows = parseCsv(buildSubscribersCsv([sub('e@example.com', null, 'true', '2026-11-21T03:00:00.000Z')]));
    expect(rows[1][2]).toBe('2026-11-20');
  });

  it('names the file with the date', () => {
    expect(subscribersCsvFileName(new Date(2026, 10, 22, 23, 59))).toBe('subscribers-2026-11-22.csv');
    expect(subscribersCsvFileName(new Date(2027, 0, 5))).toBe('subscribers-2027-01-05.csv');
  });
});
