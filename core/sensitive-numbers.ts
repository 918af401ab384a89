// What looks like a Social Security or account number in a visitor's text (docs/product.md §2 and
// §4: the contact form and the chat say, before sending, to use the client portal instead). A hint,
// never a block, so it leans to saying nothing on the numbers a visitor writes every day: phone
// numbers (the firm's own too), dates, ZIP+4 codes, years and money amounts.
//
// One pass over the text, no regular expression: the digits are cut into groups, each group
// remembers the one separator (space or dash) that joins it to the next group, and every check looks
// at a few groups and at most 19 digits. Linear in the text's length, whatever the text.

/** A space or a dash between two digits joins them into one number ("123-45-6789", "4111 1111 ..."). */
const JOINERS = ' \u00a0-\u2010\u2011\u2013';

interface Group {
  start: number;
  end: number;
  /** The joiner between this group and the next one, '' when the number ends here. */
  joiner: string;
}

const isDigit = (char: string | undefined) => char !== undefined && char >= '0' && char <= '9';

function digitGroups(text: string): Group[] {
  const groups: Group[] = [];
  let at = 0;
  while (at < text.length) {
    if (!isDigit(text[at])) {
      at++;
      continue;
    }
    const start = at;
    while (isDigit(text[at])) at++;
    const joined = JOINERS.includes(text[at] ?? 'x') && isDigit(text[at + 1]);
    groups.push({ start, end: at, joiner: joined ? text[at] : '' });
    if (joined) at++;
  }
  return groups;
}

/** A valid SSN by the ranges never issued: area 000, 666 or 900-999, group 00, serial 0000. */
function ssnRanges(area: string, group: string, serial: string): boolean {
  return area !== '000' && area !== '666' && area[0] !== '9' && group !== '00' && serial !== '0000';
}

/** The Luhn check every payment card number passes (and 9 in 10 random numbers fail). */
function luhn(digits: string): boolean {
  let sum = 0;
  for (let index = 0; index < digits.length; index++) {
    let value = digits.charCodeAt(digits.length - 1 - index) - 48;
    if (index % 2 === 1) value = value > 4 ? value * 2 - 9 : value * 2;
    sum += value;
  }
  return sum % 10 === 0;
}

const between = (value: number, low: number, high: number) => value >= low && value <= high;

/** Eight digits that read as a date: YYYYMMDD, MMDDYYYY or DDMMYYYY, years 1900-2099. */
function isDate(digits: string): boolean {
  const part = (from: number, to: number) => Number(digits.slice(from, to));
  const date = (year: number, month: number, day: number) => between(year, 1900, 2099) && between(month, 1, 12) && between(day, 1, 31);
  return date(part(0, 4), part(4, 6), part(6, 8)) || date(part(4, 8), part(0, 2), part(2, 4)) || date(part(4, 8), part(2, 4), part(0, 2));
}

/** Ten digits shaped as a North American phone number: area code and exchange start with 2-9. */
const isPhone = (digits: string) => digits.length === 10 && digits[0] >= '2' && digits[3] >= '2';

/** Part of an amount: after "$", or beside a decimal point or thousands separator ("12345678.90"). */
function inAmount(text: string, start: number, end: number): boolean {
  const before = text[start - 1] === ' ' ? start - 2 : start - 1;
  if (text[before] === '$') return true;
  if ((text[start - 1] === '.' || text[start - 1] === ',') && isDigit(text[start - 2])) return true;
  return (text[end] === '.' || text[end] === ',') && isDigit(text[end + 1]);
}

/**
 * One run of digits without joiners. Nine digits are judged as an SSN only (so the ranges never
 * issued keep random numbers out); 8-17 digits are an account number unless they read as a date or
 * a phone number (with or without the leading 1); 18-19 digits only as a card (Luhn). A run ending
 * in 0000 is a round amount (and no SSN has serial 0000).
 */
function plainRun(digits: string): boolean {
  const length = digits.length;
  if (length < 8 || length > 19 || digits.endsWith('0000')) return false;
  if (length === 9) return ssnRanges(digits.slice(0, 3), digits.slice(3, 5), digits.slice(5));
  if (length === 8) return !isDate(digits);
  if (length === 10) return !isPhone(digits);
  if (length === 11 && digits[0] === '1') return !isPhone(digits.slice(1));
  return length <= 17 || luhn(digits);
}

const isYear = (text: string, group: Group) => group.end - group.start === 4 && between(Number(text.slice(group.start, group.end)), 1900, 2099);

/**
 * A card number written in groups from index `first`: a group of four, then groups of 3-6 digits
 * joined by the same separator, 12-19 digits in all, passing Luhn ("4111 1111 1111 1111",
 * "3782-822463-10005"), not a list of years.
 */
function groupedCard(text: string, groups: Group[], first: number): boolean {
  const joiner = groups[first].joiner;
  if (!joiner || groups[first].end - groups[first].start !== 4) return false;
  let digits = text.slice(groups[first].start, groups[first].end);
  let years = isYear(text, groups[first]);
  for (let index = first + 1; index < groups.length && groups[index - 1].joiner === joiner; index++) {
    const group = groups[index];
    const length = group.end - group.start;
    if (length < 3 || length > 6 || digits.length + length > 19) return false;
    digits += text.slice(group.start, group.end);
    years &&= isYear(text, group);
    if (digits.length >= 12 && !years && luhn(digits) && !inAmount(text, groups[first].start, group.end)) return true;
  }
  return false;
}

/** An SSN written ddd-dd-dddd or ddd dd dddd from index `first` (one separator throughout). */
function groupedSsn(text: string, groups: Group[], first: number): boolean {
  const [area, group, serial] = [groups[first], groups[first + 1], groups[first + 2]];
  if (!serial || !area.joiner || area.joiner !== group.joiner) return false;
  const lengths = [area, group, serial].map((part) => part.end - part.start).join();
  const slice = (part: Group) => text.slice(part.start, part.end);
  return lengths === '3,2,4' && ssnRanges(slice(area), slice(group), slice(serial));
}

/**
 * Whether the text holds something that looks like a US Social Security number (ddd-dd-dddd,
 * ddd dd dddd or nine digits, in the ranges issued) or a bank or card account number (8-17 digits
 * in a row that are not a phone number or a date, or a card number of 12-19 digits in groups that
 * passes the Luhn check).
 */
export function looksLikeSensitiveNumber(text: string): boolean {
  const groups = digitGroups(text);
  for (let index = 0; index < groups.length; index++) {
    const { start, end } = groups[index];
    if (end - start >= 8 && end - start <= 19 && plainRun(text.slice(start, end)) && !inAmount(text, start, end)) return true;
    if (groupedSsn(text, groups, index) || groupedCard(text, groups, index)) return true;
  }
  return false;
}
