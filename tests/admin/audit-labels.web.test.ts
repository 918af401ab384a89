import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AUDIT_ACTION_LABELS, AUDIT_RECORD_LABELS, auditActionLabel, auditRecordLabel } from '#core/audit-labels';
import { AUDIT_ACTIONS } from '#core/schemas/audit';

// The audit trail in words (docs/product.md §6.9): every action the worker records and every kind of
// record it names has a label in core/audit-labels.ts. The actions and kinds are read from the
// worker's own source (every call of the audit service and every `action:` / `record:` it is
// given), so a new one written anywhere without its words fails here, by name.

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** The action codes and record kinds the worker's audit calls carry. */
function written(): { actions: Set<string>; kinds: Set<string> } {
  const actions = new Set<string>();
  const kinds = new Set<string>();
  for (const file of sources('worker')) {
    const source = readFileSync(file, 'utf8');
    for (const call of source.matchAll(/\b(?:audit|auditEntry|recordAudit|auditStatement|auditIfPreviousChanged|aggregatedAuditStatement)\(|\baction: |\brecord: /g)) {
      // The call's arguments: up to the end of its statement.
      const args = source.slice(call.index, call.index + 400).split(/;\n|\n\s*\n/)[0];
      for (const [, action] of args.matchAll(/'([a-z]+\.[a-z-]+)'/g)) actions.add(action);
      for (const [, kind] of args.matchAll(/[`'"]([a-z][a-z-]*):(?:\$\{|\d)/g)) kinds.add(kind);
    }
  }
  return { actions, kinds };
}

describe('audit trail labels', () => {
  const { actions, kinds } = written();

  it('finds the worker’s audit calls (the scan itself works)', () => {
    expect(actions.size).toBeGreaterThan(50);
    for (const action of ['auth.two-factor-enable', 'contact.reply', 'subscriber.import-confirmations-sent', 'newsletter.scheduled-send']) expect(actions).toContain(action);
    for (const kind of ['admin-user', 'content-draft', 'contact-message', 'date']) expect(kinds).toContain(kind);
  });

  it('has words for every action the worker writes and the trail filters by', () => {
    const labels: Record<string, string> = AUDIT_ACTION_LABELS;
    expect([...actions].filter((action) => !(AUDIT_ACTIONS as readonly string[]).includes(action))).toEqual([]);
    expect([...new Set([...AUDIT_ACTIONS, ...actions])].filter((action) => !Object.hasOwn(labels, action))).toEqual([]);
    // Words, not codes: no label is dotted or hyphen-joined like a code, and no two actions read the same.
    for (const label of Object.values(labels)) expect(label).toMatch(/^[A-Z][A-Za-z’ :-]+$/);
    for (const label of Object.values(labels)) expect(label).not.toMatch(/\.|[a-z]-[a-z]+-/);
    expect(new Set(Object.values(labels)).size).toBe(Object.values(labels).length);
  });

  it('has words for every kind of record the worker names', () => {
    expect([...kinds].filter((kind) => !Object.hasOwn(AUDIT_RECORD_LABELS, kind))).toEqual([]);
  });

  it.each([
    ['auth.two-factor-enable', 'Two-factor turned on'],
    ['contact.archive', 'Message archived'],
    ['contact.unarchive', 'Message brought back from the archive'],
  ])('reads the issue’s examples in plain words: action %j', (input, expected) => {
    expect(auditActionLabel(input)).toBe(expected);
  });

  it.each([
    ['content-draft:1', 'Content draft (made from version 1)'],
    ['contact-message:12', 'Contact message 12'],
    ['admin-user:3', 'User account 3'],
    ['date:2026-12-10', 'Day Thu, Dec 10, 2026'],
  ])('reads the issue’s examples in plain words: record %j', (input, expected) => {
    expect(auditRecordLabel(input)).toBe(expected);
  });

  it.each([
    ['content.export', 'Other change (content.export)'],
    ['toString', 'Other change (toString)'],
  ])('marks a code an older or newer version wrote as unknown, keeping the code: action %j', (input, expected) => {
    expect(auditActionLabel(input)).toBe(expected);
  });

  it.each([
    ['widget:9', 'Other record (widget:9)'],
    ['appointment', 'Other record (appointment)'],
    ['constructor:1', 'Other record (constructor:1)'],
  ])('marks a code an older or newer version wrote as unknown, keeping the code: record %j', (input, expected) => {
    expect(auditRecordLabel(input)).toBe(expected);
  });
});
