import { RotateCcw } from 'lucide-react';
import { useState } from 'react';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { toast } from '../../components/ui/use-toast';
import { errorMessage } from '../../lib/api';
import { changeWords } from './change-labels';
import { useRestore, type ContentVersion } from './content-api';
import { formatWhen } from './conflict';

// /admin/content/history's body (docs/product.md §6.6): every published version, newest first, with
// who published it and when and what it changed against the one before; Restore publishes a copy
// of an earlier one, after a confirmation.

type Change = ContentVersion['changes'][number];

const shown = (value: Change['before']) => (value === null ? 'empty' : value === undefined ? '' : typeof value === 'string' ? `“${value}”` : String(value));

/** One change: where and which field in the content screens' words (change-labels.ts), the path kept in the title. */
function ChangeLine({ change }: { change: Change }) {
  const { where, field } = changeWords(change.path);
  return (
    <li className="py-1" data-testid="history-change" data-path={change.path}>
      <span title={change.path}>
        {where && <span className="text-slate-600">{where} › </span>}
        <span className="font-semibold">{field}</span>
      </span>{' '}
      {change.kind === 'changed' ? (
        <span>
          changed{change.before !== undefined && <> from <del className="text-red-800">{shown(change.before)}</del></>}
          {change.after !== undefined && <> to <ins className="text-green-800 no-underline">{shown(change.after)}</ins></>}
        </span>
      ) : change.kind === 'added' ? (
        <span>added{change.after !== undefined && <> <ins className="text-green-800 no-underline">{shown(change.after)}</ins></>}</span>
      ) : (
        <span>removed{change.before !== undefined && <> <del className="text-red-800">{shown(change.before)}</del></>}</span>
      )}
    </li>
  );
}

export function ContentHistory({ versions }: { versions: ContentVersion[] }) {
  const restore = useRestore();
  const [asked, setAsked] = useState<ContentVersion | null>(null);
  const latest = versions[0]?.version;

  const confirm = () => {
    if (!asked) return;
    const from = asked.version;
    restore.mutate(from, {
      onSuccess: ({ version }) => {
        setAsked(null);
        toast({ title: `Version ${from} restored`, description: `It is live again as version ${version}.` });
      },
      onError: (error) => toast({ variant: 'destructive', title: 'Not restored', description: errorMessage(error, 'Failed to restore. Please try again.') }),
    });
  };

  return (
    <>
      <ol className="space-y-4" aria-label="Published versions, newest first">
        {versions.map((v) => (
          <li key={v.version} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6" data-testid="content-version" data-version={v.version}>
            <div className="flex flex-wrap items-start justify-between gap-3">
              <div>
                <h2 className="flex flex-wrap items-center gap-2 text-lg font-semibold text-brand-800">
                  Version {v.version}
                  {v.version === latest && <Badge>Live</Badge>}
                </h2>
                <p className="text-sm text-slate-600">
                  {v.publishedBy ? `Published by ${v.publishedBy} on ${formatWhen(v.publishedAt)}` : 'The default content'}
                  {v.restoredFrom !== null && `, a copy of version ${v.restoredFrom}`}.
                </p>
              </div>
              {v.version !== latest && (
                <Button icon={RotateCcw} variant="outline" size="sm" onClick={() => setAsked(v)} aria-label={`Restore version ${v.version}`}>Restore</Button>
              )}
            </div>
            {v.changes.length > 0 && (
              <div className="mt-3">
                <h3 className="text-sm font-medium text-slate-800">Changes from version {v.version - 1}</h3>
                <ul className="mt-1 divide-y divide-slate-100 text-sm text-slate-800">
                  {v.changes.map((change, i) => (
                    <ChangeLine key={i} change={change} />
                  ))}
                </ul>
                {v.moreChanges > 0 && <p className="mt-1 text-sm text-slate-600">…and {v.moreChanges} more changes.</p>}
              </div>
            )}
            {v.changes.length === 0 && v.version !== 1 && <p className="mt-3 text-sm text-slate-600">No changes from version {v.version - 1}.</p>}
          </li>
        ))}
      </ol>
      <Dialog
        open={asked !== null}
        onOpenChange={(open) => !open && !restore.isPending && setAsked(null)}
        title={`Restore version ${asked?.version ?? ''}?`}
        description={`This publishes a copy of version ${asked?.version ?? ''} as version ${(latest ?? 0) + 1}, live on the site at once. Later versions are kept; the draft is kept too.`}
      >
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="outline" onClick={() => setAsked(null)} disabled={restore.isPending}>
            Cancel
          </Button>
          <Button onClick={confirm} disabled={restore.isPending}>
            {restore.isPending ? 'Restoring…' : 'Restore'}
          </Button>
        </div>
      </Dialog>
    </>
  );
}
