import { CircleCheck, CircleHelp, CircleX, RefreshCw } from 'lucide-react';
import { Fragment } from 'react';
import { Link } from 'react-router';
import { evaluateGoLive, type GoLiveCheck, type GoLiveState } from '#core/go-live';
import { GO_LIVE_REQUIREMENTS } from '#core/go-live-requirements';
import { Badge, type BadgeVariant } from '../components/ui/badge';
import { Button } from '../components/ui/button';
import { Card, CardContent } from '../components/ui/card';
import { useReadFailures } from '../features/admin/api/admin-api';
import { useGoLiveChecks } from '../features/admin/api/go-live-api';
import { AdminSubPageHeading, QueryView, SignedInOnly } from '../features/admin/components/admin-page-parts';
import { formatDateTime } from '../features/admin/lib/format';
import { usePageMeta } from '../lib/page-meta';

/**
 * /admin/go-live: the go-live checklist (docs/product.md §6.10), for owners: every production
 * requirement (core/go-live.ts) with its state from the facts the worker reads now, what to do while it is
 * missing, and where. `npm run doctor` prints the same list for the operator.
 */
export default function AdminGoLivePage() {
  usePageMeta({ title: 'Go-live checklist', description: 'What the site still needs for production' });
  return (
    <SignedInOnly>
      {(_username, session) => (
        <section className="mx-auto max-w-5xl space-y-6 px-4 py-10 [overflow-wrap:anywhere] sm:px-6 lg:px-8">
          <AdminSubPageHeading title="Go-live checklist" intro={INTRO} />
          {session.role === 'owner' ? (
            <Checklist />
          ) : (
            <p role="alert" className="rounded-md border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900">
              Only an owner can see the go-live checklist. Ask the firm’s owner.
            </p>
          )}
        </section>
      )}
    </SignedInOnly>
  );
}

const INTRO = 'What the site needs before the firm relies on it, each read from the live site now. Secrets are shown as set or not, never their values.';

/** Each state in words and with its own icon, so it never rests on colour alone. */
const STATE: Record<GoLiveState, { label: string; variant: BadgeVariant; icon: typeof CircleCheck }> = {
  done: { label: 'Done', variant: 'success', icon: CircleCheck },
  missing: { label: 'Missing', variant: 'warning', icon: CircleX },
  unknown: { label: 'Could not check', variant: 'secondary', icon: CircleHelp },
};

function Checklist() {
  const checks = useGoLiveChecks();
  useReadFailures(checks, 'Failed to load the go-live checklist. Please try again.');
  return (
    <QueryView query={checks} what="the go-live checklist">
      {(facts) => {
        const list = evaluateGoLive(facts);
        const done = list.filter((c) => c.state === 'done').length;
        return (
          <>
            <div className="flex flex-wrap items-center justify-between gap-3">
              <p className="text-slate-700" data-testid="go-live-summary">
                <span className="font-semibold text-slate-900">
                  {done} of {list.length} done
                </span>{' '}
                {facts.checkedAt && <> · checked {formatDateTime(facts.checkedAt)}</>}
              </p>
              <Button variant="outline" icon={RefreshCw} onClick={() => void checks.refetch()} disabled={checks.isFetching}>
                {checks.isFetching ? 'Checking...' : 'Re-check'}
              </Button>
            </div>
            <ol className="space-y-3" aria-label="Go-live requirements">
              {list.map((check) => (
                <Requirement key={check.id} check={check} />
              ))}
            </ol>
          </>
        );
      }}
    </QueryView>
  );
}

function Requirement({ check }: { check: GoLiveCheck }) {
  const requirement = GO_LIVE_REQUIREMENTS.find((r) => r.id === check.id);
  const state = STATE[check.state];
  if (!requirement) return null;
  const titleId = `go-live-${check.id}`;
  return (
    <li aria-labelledby={titleId} data-requirement={check.id}>
      <Card>
        <CardContent className="space-y-2" padding="p-4">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h2 id={titleId} className="text-base font-semibold text-brand-800">
              {requirement.title}
            </h2>
            <Badge variant={state.variant} data-state={check.state}>
              <state.icon className="h-3.5 w-3.5" aria-hidden="true" />
              {state.label}
            </Badge>
          </div>
          <p className="text-sm text-slate-700">{check.detail}</p>
          {check.state !== 'done' && (
            <p className="text-sm text-slate-800">
              <span className="font-medium">To do: </span>
              <WithCode text={requirement.todo} />{' '}
              {'screen' in requirement.where ? (
                <Link to={requirement.where.screen} className="font-medium text-brand-700 underline">
                  Open {requirement.where.label}
                </Link>
              ) : (
                <span className="text-slate-600">(README, “{requirement.where.readme}”)</span>
              )}
            </p>
          )}
        </CardContent>
      </Card>
    </li>
  );
}

/** The what-to-do line with its `commands` set as code. */
function WithCode({ text }: { text: string }) {
  return (
    <>
      {text.split('`').map((part, i) =>
        i % 2 === 1 ? (
          <code key={i} className="rounded bg-slate-100 px-1">
            {part}
          </code>
        ) : (
          <Fragment key={i}>{part}</Fragment>
        ),
      )}
    </>
  );
}
