import { Save } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { siteContentSchema } from '#core/content/schema';
import { Button } from '../../components/ui/button';
import { toast } from '../../components/ui/use-toast';
import { errorMessage } from '../../lib/api';
import { ContentField, fieldId, setIn, type FieldErrors, type Path } from './content-fields';
import { conflictOf, fieldErrorsOf, useSaveDraft, type Conflict, type ContentDocument, type ContentState } from './content-api';
import { ConflictAlert, formatWhen } from './conflict';
import type { ContentSection } from './sections';
import { TaxYearNotice } from './tax-year-notice';

// One content screen's form (docs/product.md §6.6, the content screens): the section's part of the
// document, checked with the shared schema before it is sent, saved as the whole draft. A 400's
// messages land on their fields; a 409 says what changed and keeps what the admin typed.

/** What an edit starts from: the draft when it was made from the latest version, else the latest version. */
export function baseOf(state: ContentState) {
  const { published, draft } = state;
  if (draft && draft.basedOn === published.version) return { doc: draft.content, basedOn: draft.basedOn, draftUpdatedAt: draft.updatedAt as string | null, fromDraft: true };
  return { doc: published.content, basedOn: published.version, draftUpdatedAt: draft?.updatedAt ?? null, fromDraft: false };
}
type Base = ReturnType<typeof baseOf>;

const pick = (doc: ContentDocument, keys: ContentSection['keys']) => Object.fromEntries(keys.map((key) => [key, doc[key]])) as Partial<ContentDocument>;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The admin's edits (what changed from `origin` to `mine`) applied to `theirs`, a newer copy: a
 * field the admin did not touch takes the newer value; a list the admin changed is the admin's.
 */
export function applyEdits(origin: unknown, mine: unknown, theirs: unknown): unknown {
  if (JSON.stringify(origin) === JSON.stringify(mine)) return theirs;
  if (isRecord(origin) && isRecord(mine) && isRecord(theirs)) {
    const out: Record<string, unknown> = { ...theirs };
    for (const key of new Set([...Object.keys(mine), ...Object.keys(origin)])) {
      const merged = applyEdits(origin[key], mine[key], theirs[key]);
      if (merged === undefined) delete out[key];
      else out[key] = merged;
    }
    return out;
  }
  return mine;
}

export function SectionEditor({ section, state, reload }: { section: ContentSection; state: ContentState; reload: () => Promise<ContentState | undefined> }) {
  const [base, setBase] = useState<Base>(() => baseOf(state));
  const [values, setValues] = useState(() => pick(base.doc, section.keys));
  // The section as loaded: what the admin's edits are measured against when applied to a newer copy.
  const [origin, setOrigin] = useState(values);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [elsewhere, setElsewhere] = useState<string[]>([]);
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const [reloading, setReloading] = useState(false);
  const save = useSaveDraft();
  const staleDraft = state.draft && state.draft.basedOn !== state.published.version ? state.draft : null;

  const onChange = (path: Path, value: unknown) => setValues((current) => setIn(current, path, value));

  /** Shows messages by path: this section's on their fields (the first focused), the others' listed. */
  const showErrors = (messages: FieldErrors) => {
    const own = Object.fromEntries(Object.entries(messages).filter(([key]) => section.keys.some((k) => key === k || key.startsWith(`${k}.`))));
    setErrors(own);
    setElsewhere(Object.entries(messages).filter(([key]) => !(key in own)).map(([key, message]) => `${key}: ${message}`));
    const first = Object.keys(own)[0];
    if (first) requestAnimationFrame(() => document.getElementById(fieldId(first.split('.')))?.focus());
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const content = { ...base.doc, ...values } as ContentDocument;
    const checked = siteContentSchema.safeParse(content);
    if (!checked.success) {
      const messages: FieldErrors = {};
      for (const issue of checked.error.issues) messages[issue.path.join('.')] ??= issue.message;
      showErrors(messages);
      toast({ variant: 'destructive', title: 'Not saved', description: 'Please correct the highlighted fields.' });
      return;
    }
    setErrors({});
    setElsewhere([]);
    save.mutate(
      { basedOn: base.basedOn, draftUpdatedAt: base.draftUpdatedAt, content },
      {
        onSuccess: (draft) => {
          const next = { doc: draft.content, basedOn: draft.basedOn, draftUpdatedAt: draft.updatedAt as string | null, fromDraft: true };
          setBase(next);
          setValues(pick(next.doc, section.keys));
          setOrigin(pick(next.doc, section.keys));
          setConflict(null);
          toast({ title: 'Draft saved', description: 'Publish it on the Site content page to make it live.' });
        },
        onError: (error) => {
          const fields = fieldErrorsOf(error);
          const refused = conflictOf(error);
          if (fields) {
            showErrors(fields);
            toast({ variant: 'destructive', title: 'Not saved', description: errorMessage(error, 'Please correct the highlighted fields.') });
          } else if (refused) {
            setConflict(refused);
          } else {
            toast({ variant: 'destructive', title: 'Error', description: errorMessage(error, 'Failed to save the draft. Please try again.') });
          }
        },
      },
    );
  };

  /** Reads the content again; `keep` keeps the form's values (applied to the latest on the next save). */
  const refresh = async (keep: boolean) => {
    setReloading(true);
    try {
      const fresh = await reload();
      if (!fresh) return;
      const next = baseOf(fresh);
      const latest = pick(next.doc, section.keys);
      setBase(next);
      setValues(keep ? (applyEdits(origin, values, latest) as typeof latest) : latest);
      setOrigin(latest);
      setConflict(null);
      setErrors({});
      setElsewhere([]);
      toast({
        title: keep ? `Your edits now apply to version ${next.basedOn}` : 'Reloaded',
        description: keep ? 'They are not saved yet: save the draft to keep them.' : `The form shows the latest content (version ${next.basedOn}).`,
      });
    } catch (error) {
      toast({ variant: 'destructive', title: 'Error', description: errorMessage(error, 'Failed to reload the content. Please try again.') });
    } finally {
      setReloading(false);
    }
  };

  return (
    <form noValidate onSubmit={submit} className="space-y-6" aria-labelledby="content-section-title">
      <p className="text-sm text-slate-600" data-testid="content-base">
        {base.fromDraft
          ? `Editing the draft (made from version ${base.basedOn}, last saved ${formatWhen(base.draftUpdatedAt)}). Nothing is live until it is published.`
          : `Editing version ${base.basedOn}, the published content. Saving creates a draft; nothing is live until it is published.`}
      </p>
      {section.keys.includes('resources') && <TaxYearNotice taxYear={state.published.content.resources.taxFacts.taxYear} />}
      {staleDraft && !conflict && (
        <p role="status" className="rounded-md border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950">
          The draft saved by {staleDraft.updatedBy} on {formatWhen(staleDraft.updatedAt)} was made from version {staleDraft.basedOn}, but version {state.published.version} has
          been published since, so it can no longer be published. This form starts from version {state.published.version}; saving replaces that old draft.
        </p>
      )}
      {conflict && (
        <ConflictAlert
          conflict={conflict}
          busy={reloading}
          keepLabel="Apply my edits to the latest version"
          onKeep={() => void refresh(true)}
          onReload={() => void refresh(false)}
        />
      )}
      {elsewhere.length > 0 && (
        <div role="alert" className="rounded-md border border-red-200 bg-red-50 p-4 text-sm text-red-800">
          <p className="font-semibold">Other sections of the draft have problems to correct first:</p>
          <ul className="mt-1 list-disc pl-5">
            {elsewhere.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </div>
      )}
      {section.fields.map((field) => (
        <ContentField key={String(field.key)} field={field} path={[]} root={values} errors={errors} onChange={onChange} />
      ))}
      <div className="flex flex-wrap items-center gap-3 border-t border-slate-200 pt-4">
        <Button type="submit" disabled={save.isPending || reloading}>
          <Save className="h-4 w-4" aria-hidden="true" />
          {save.isPending ? 'Saving…' : 'Save draft'}
        </Button>
        <Link to="/admin/content" className="inline-flex min-h-6 items-center text-sm text-brand-700 hover:underline">
          Back to Site content (publish)
        </Link>
      </div>
    </form>
  );
}
