import { CalendarClock, Loader2, Play, Send, Square } from 'lucide-react';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { CardContent } from '../../../components/ui/card';
import { toast } from '../../../components/ui/use-toast';
import { errorMessage } from '../../../lib/api';
import { useSchedulerAction, useSchedulerStatus, type SchedulerAction } from '../api/admin-api';
import { PanelCard } from './admin-page-parts';

const successTitle: Record<SchedulerAction, string> = {
  trigger: 'Scheduler triggered',
  start: 'Scheduler started successfully',
  stop: 'Scheduler stopped successfully',
};

/**
 * docs/product.md §5.5, §6.2: Running or Stopped, the schedule, Start or Stop, Send Now; status
 * re-read after each.
 */
export function SchedulerPanel({ enabled }: { enabled: boolean }) {
  const status = useSchedulerStatus(enabled);
  const action = useSchedulerAction();
  const running = status.data?.running ?? false;

  function run(kind: SchedulerAction) {
    action.mutate(kind, {
      // The server's message adds detail (e.g. how many received it); skip it when it only repeats the title.
      onSuccess: (data) => toast({ title: successTitle[kind], description: data.message === successTitle[kind] ? undefined : data.message }),
      onError: (error) =>
        toast({ variant: 'destructive', title: `Failed to ${kind} scheduler`, description: errorMessage(error, 'Please try again') }),
    });
  }

  return (
    <PanelCard id="scheduler-heading" title="Automated Newsletter Scheduler" icon={CalendarClock}>
      <CardContent className="space-y-4">
        {status.isPending ? (
          <p className="text-sm text-slate-600">Loading scheduler status…</p>
        ) : status.isError ? (
          <p className="text-sm text-red-700">Could not read the scheduler status: {errorMessage(status.error, 'unknown error')}</p>
        ) : (
          <div className="flex flex-wrap items-center gap-3 text-sm">
            <span>Status:</span>
            <Badge variant={running ? 'success' : 'secondary'} data-testid="scheduler-status">
              {running ? 'Running' : 'Stopped'}
            </Badge>
            <span className="text-slate-700">Schedule: {status.data.schedule}</span>
          </div>
        )}
        <div className="flex flex-wrap gap-2">
          {running ? (
            <Button variant="outline" onClick={() => run('stop')} disabled={action.isPending || status.isPending}>
              <Square className="h-4 w-4" aria-hidden="true" />
              Stop Scheduler
            </Button>
          ) : (
            <Button onClick={() => run('start')} disabled={action.isPending || status.isPending}>
              <Play className="h-4 w-4" aria-hidden="true" />
              Start Scheduler
            </Button>
          )}
          <Button variant="accent" onClick={() => run('trigger')} disabled={action.isPending}>
            {action.isPending && action.variables === 'trigger' ? (
              <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />
            ) : (
              <Send className="h-4 w-4" aria-hidden="true" />
            )}
            Send Now
          </Button>
        </div>
      </CardContent>
    </PanelCard>
  );
}
