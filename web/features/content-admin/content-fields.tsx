import { ArrowDown, ArrowUp, Plus, Trash2 } from 'lucide-react';
import { useEffect, useRef, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { Button } from '../../components/ui/button';
import { FieldError, Input, Label, Textarea } from '../../components/ui/input';
import { RichTextField } from './rich-text-field';
import type { Field } from './sections';

// Draws a section's fields (sections.ts) over the document being edited: a labelled input per text,
// a fieldset per group and list, with add, remove and move up/down for every list entry. Each
// input's message (the schema's, or the server's 400 keyed by the same path) is tied to it with
// aria-describedby.

export type Path = (string | number)[];
/** Messages by path ('faq.items.3.answer'). */
export type FieldErrors = Record<string, string>;

export const pathKey = (path: Path) => path.join('.');
/** An element id for the field at `path`. */
export const fieldId = (path: Path) => `content-${path.join('-')}`;

export function getIn(value: unknown, path: Path): unknown {
  return path.reduce<unknown>((at, key) => (at && typeof at === 'object' ? (at as Record<string | number, unknown>)[key] : undefined), value);
}

/** `value` with the entry at `path` replaced (undefined removes an object's key); the rest is shared. */
export function setIn<T>(value: T, path: Path, next: unknown): T {
  if (path.length === 0) return next as T;
  const [key, ...rest] = path;
  if (Array.isArray(value)) {
    const copy = [...value];
    copy[key as number] = setIn(copy[key as number], rest, next);
    return copy as T;
  }
  const copy = { ...(value as Record<string, unknown>) };
  const inner = setIn(copy[key as string], rest, next);
  if (inner === undefined) delete copy[key as string];
  else copy[key as string] = inner;
  return copy as T;
}

interface FieldProps {
  field: Field;
  path: Path;
  root: unknown;
  errors: FieldErrors;
  onChange: (path: Path, value: unknown) => void;
}

const join = (path: Path, key: string | number) => (key === '' ? path : [...path, key]);

export function ContentField({ field, path: parent, root, errors, onChange }: FieldProps) {
  const path = join(parent, field.key);
  if (field.kind === 'group') {
    const inner = field.fields.map((f) => <ContentField key={String(f.key)} field={f} path={path} root={root} errors={errors} onChange={onChange} />);
    if (!field.label) return <div className="space-y-4">{inner}</div>;
    return (
      <fieldset className="space-y-4 rounded-md border border-slate-200 p-4">
        <legend className="px-1 text-base font-semibold text-brand-800">{field.label}</legend>
        {inner}
      </fieldset>
    );
  }
  if (field.kind === 'list') return <ListField field={field} path={path} root={root} errors={errors} onChange={onChange} />;
  return <LeafField field={field} path={path} value={getIn(root, path)} error={errors[pathKey(path)]} onChange={(value) => onChange(path, value)} />;
}

type Leaf = Extract<Field, { kind: 'text' | 'textarea' | 'rich' | 'number' }>;

function LeafField({ field, path, value, error, onChange, label }: { field: Leaf; path: Path; value: unknown; error?: string; onChange: (value: unknown) => void; label?: string }) {
  const id = fieldId(path);
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [field.hint ? hintId : '', error ? errorId : ''].filter(Boolean).join(' ') || undefined;
  const common = { id, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy };
  const text = value === null || value === undefined || (typeof value === 'number' && Number.isNaN(value)) ? '' : String(value);
  return (
    <div className="min-w-0 flex-1">
      <Label htmlFor={id}>{label ?? field.label}</Label>
      {field.hint && (
        <p id={hintId} className="mb-1 text-xs text-slate-600">
          {field.hint}
        </p>
      )}
      {field.kind === 'rich' ? (
        <RichTextField {...common} label={label ?? field.label} value={text} onChange={onChange} />
      ) : field.kind === 'textarea' ? (
        <Textarea {...common} rows={4} value={text} onChange={(e) => onChange(e.target.value)} />
      ) : field.kind === 'number' ? (
        <Input {...common} type="number" inputMode="numeric" value={text} onChange={(e) => onChange(e.target.value === '' ? Number.NaN : Number(e.target.value))} />
      ) : (
        <Input {...common} value={text} onChange={(e) => onChange(field.nullable && e.target.value === '' ? null : e.target.value)} />
      )}
      <FieldError id={errorId} message={error} />
    </div>
  );
}

type List = Extract<Field, { kind: 'list' }>;

function ListField({ field, path, root, errors, onChange }: { field: List; path: Path; root: unknown; errors: FieldErrors; onChange: FieldProps['onChange'] }) {
  const items = (getIn(root, path) as unknown[] | undefined) ?? [];
  const id = fieldId(path);
  const error = errors[pathKey(path)];
  const noun = field.itemLabel.toLowerCase();

  /** Changes the list now, then moves the focus to `focus` (an element id) once it is drawn. */
  const change = (next: unknown[], focus: string) => {
    flushSync(() => onChange(path, next.length === 0 && field.optional ? undefined : next));
    document.getElementById(focus)?.focus();
  };
  /** Adds an entry, opened, with the focus in its first input. */
  const add = () => {
    flushSync(() => onChange(path, [...items, field.newItem(items)]));
    const entry = document.getElementById(`${id}-${items.length}-entry`);
    if (entry instanceof HTMLDetailsElement) entry.open = true;
    (entry ?? document.getElementById(fieldId([...path, items.length])))?.querySelector<HTMLElement>('input, textarea')?.focus();
    if (!entry) document.getElementById(fieldId([...path, items.length]))?.focus();
  };
  const move = (from: number, to: number, button: 'up' | 'down') => {
    const next = [...items];
    [next[from], next[to]] = [next[to], next[from]];
    // The focus follows the entry; at the list's end it moves to the button still enabled.
    const last = to === 0 || to === items.length - 1;
    change(next, `${id}-${to}-${last ? (button === 'up' ? 'down' : 'up') : button}`);
  };

  return (
    <fieldset className="space-y-3 rounded-md border border-slate-200 p-4" aria-describedby={error ? `${id}-error` : undefined}>
      <legend className="px-1 text-base font-semibold text-brand-800">{field.label}</legend>
      <div className="space-y-3">
        {items.map((item, index) => {
          const itemPath = [...path, index];
          const name = `${field.itemLabel} ${index + 1}`;
          const controls = (
            <div className="flex flex-wrap gap-2">
              <Button id={`${id}-${index}-up`} variant="outline" size="sm" disabled={index === 0} onClick={() => move(index, index - 1, 'up')} aria-label={`Move ${noun} ${index + 1} up`}>
                <ArrowUp className="h-4 w-4" aria-hidden="true" />
                Up
              </Button>
              <Button
                id={`${id}-${index}-down`}
                variant="outline"
                size="sm"
                disabled={index === items.length - 1}
                onClick={() => move(index, index + 1, 'down')}
                aria-label={`Move ${noun} ${index + 1} down`}
              >
                <ArrowDown className="h-4 w-4" aria-hidden="true" />
                Down
              </Button>
              <Button
                variant="outline"
                size="sm"
                className="text-red-700"
                onClick={() => change(items.filter((_, i) => i !== index), `${id}-add`)}
                aria-label={`Remove ${noun} ${index + 1}`}
              >
                <Trash2 className="h-4 w-4" aria-hidden="true" />
                Remove
              </Button>
            </div>
          );
          if (field.item.kind !== 'group' && field.item.kind !== 'list') {
            // A list of texts: each entry is one labelled input with its buttons beside it.
            return (
              <div key={index} className="flex flex-col gap-2 sm:flex-row sm:items-end" data-testid="content-list-entry">
                <LeafField field={field.item} path={itemPath} label={name} value={item} error={errors[pathKey(itemPath)]} onChange={(value) => onChange(itemPath, value)} />
                {controls}
              </div>
            );
          }
          const hasError = Object.keys(errors).some((key) => key === pathKey(itemPath) || key.startsWith(`${pathKey(itemPath)}.`));
          return (
            <Entry key={index} id={`${id}-${index}-entry`} hasError={hasError} summary={`${name}${field.summary?.(item) ? `: ${field.summary(item)}` : ''}`}>
              <ContentField field={field.item} path={itemPath} root={root} errors={errors} onChange={onChange} />
              {errors[pathKey(itemPath)] && <FieldError id={`${fieldId(itemPath)}-error`} message={errors[pathKey(itemPath)]} />}
              {controls}
            </Entry>
          );
        })}
      </div>
      <FieldError id={`${id}-error`} message={error} />
      <Button id={`${id}-add`} variant="outline" size="sm" onClick={add}>
        <Plus className="h-4 w-4" aria-hidden="true" />
        Add {noun}
      </Button>
    </fieldset>
  );
}

/** One entry of a list of records: collapsed to its heading, opened by the admin or by a message inside it. */
function Entry({ id, summary, hasError, children }: { id: string; summary: string; hasError: boolean; children: ReactNode }) {
  const ref = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    if (hasError && ref.current) ref.current.open = true;
  }, [hasError]);
  return (
    <details id={id} ref={ref} className="rounded-md border border-slate-200 bg-slate-50" data-testid="content-list-entry">
      <summary className="cursor-pointer rounded-md px-3 py-2 text-sm font-medium text-slate-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600">{summary}</summary>
      <div className="space-y-4 border-t border-slate-200 bg-white p-3">{children}</div>
    </details>
  );
}
