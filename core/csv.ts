// The one CSV writer of every export: the back office's (subscribers, appointments, contact
// messages, built in the browser by web/features/admin/lib/csv.ts) and the worker's audit trail
// (worker/services/audit/audit-log.ts). One writer, so they share RFC 4180 quoting and formula
// neutralising. Pure: unit-tested in Node (tests/admin/admin-csv.web.test.ts,
// tests/newsletter/subscribers-csv.web.test.ts) and through the audit export (tests/admin/audit.worker.test.ts).

/**
 * A spreadsheet treats a cell starting with = + - @ as a formula, even after leading whitespace it
 * trims (a leading tab or carriage return is suspect too); and one in a locale that separates with
 * `;` (or one that ignores the quotes) starts a new cell after a `;` or `,` inside the text. So a
 * single quote goes wherever a cell could begin before such a character: at the start and after
 * every `;` or `,` (before any whitespace), which keeps it text (OWASP "CSV injection"):
 * `x;=cmd|' /C calc'!A0` becomes `x;'=cmd|' /C calc'!A0`.
 */
export function neutraliseFormula(value: string): string {
  return value.replace(/(^|[;,])(?=\s*[=+\-@])|^(?=[\t\r])/g, "$1'");
}

/** RFC 4180: every field in double quotes (the quotes inside doubled), so no cell's text is read as syntax. */
export function quoteCsvField(value: string): string {
  return `"${value.replaceAll('"', '""')}"`;
}

const csvCell = (value: string | null | undefined) => quoteCsvField(neutraliseFormula(value ?? ''));

/** The whole CSV: the header, then one line per row, CRLF line breaks (RFC 4180), every cell made safe. */
export function buildCsv(header: readonly string[], rows: Iterable<readonly (string | null | undefined)[]>): string {
  const lines = [header.map(csvCell).join(',')];
  for (const row of rows) lines.push(row.map(csvCell).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
