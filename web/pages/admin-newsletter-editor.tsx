import { CalendarClock, CalendarX, FileText, Loader2, Monitor, Save, Smartphone, Sparkles } from 'lucide-react';
import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { firm } from '#core/content/firm';
import { addCalendarDays, firmToday, timeZoneLabel } from '#core/firm-time';
import { Button } from '../components/ui/button';
import { CardContent } from '../components/ui/card';
import { FieldError, Input, Label, Textarea } from '../components/ui/input';
import { toast } from '../components/ui/use-toast';
import { useNewsletterTemplate, useReadFailures } from '../features/admin/api/admin-api';
import {
  type NewsletterDraft,
  renderNewsletter,
  useAiDraft,
  useCancelSchedule,
  useDraft,
  useSaveDraft,
  useScheduleDraft,
} from '../features/admin/api/newsletter-drafts-api';
import { AdminSpinner, AdminSubPageHeading, PanelCard, adminScreen } from '../features/admin/components/admin-page-parts';
import { DraftStatusBadge } from '../features/admin/components/draft-status';
import { NewsletterFrame } from '../features/admin/components/newsletter-frame';
import { fallbackTemplate } from '../features/admin/components/send-newsletter-dialog';
import { formatDateTime } from '../features/admin/lib/format';
import { ApiError, errorMessage } from '../lib/api';
import { useContent } from '../lib/content';

// TipTap (and ProseMirror under it) is this screen's alone: a chunk of its own, loaded with it.
const RichTextEditor = lazy(() => import('../features/admin/components/rich-text-editor'));

const ZONE = timeZoneLabel(firm.timeZone);
const PREVIEW_DELAY_MS = 400;

/** /admin/newsletters/edit[?id=N]: write, preview and schedule one newsletter (docs/product.md §5.9). */
export default adminScreen({ title: 'Newsletter Editor', description: 'Write, preview and schedule a newsletter' }, EditorLoader);

function EditorLoader() {
  const [params] = useSearchParams();
  const raw = params.get('id');
  const id = raw && /^[1-9]\d*$/.test(raw) ? Number(raw) : null;
  const draft = useDraft(id);
  useReadFailures(draft, 'Failed to load the draft.');
  if (id !== null && draft.isPending) return <AdminSpinner />;
  if (id !== null && draft.isError) {
    return (
      <section className="mx-auto max-w-7xl space-y-6 px-4 py-10 sm:px-6 lg:px-8">
        <AdminSubPageHeading title="Newsletter Editor" intro="Write, preview and schedule a newsletter" />
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-4 text-sm text-red-800">
          {draft.error instanceof ApiError && draft.error.status === 404 ? 'This draft does not exist.' : 'Failed to load the draft.'}{' '}
          <Link to="/admin/newsletters" className="underline">
            Back to the drafts
          </Link>
        </p>
      </section>
    );
  }
  // Keyed by the draft: opening another one starts from its own text.
  return <DraftEditor key={id ?? 'new'} draft={id === null ? null : (draft.data ?? null)} />;
}

type Mode = 'editor' | 'html';
type Width = 'desktop' | 'phone';
const MODES: [Mode, ReactNode][] = [
  ['editor', 'Editor'],
  ['html', 'HTML'],
];
const WIDTHS: [Width, ReactNode][] = [
  ['desktop', <><Monitor className="h-4 w-4" aria-hidden="true" />Desktop</>],
  ['phone', <><Smartphone className="h-4 w-4" aria-hidden="true" />Phone</>],
];

function DraftEditor({ draft }: { draft: NewsletterDraft | null }) {
  const navigate = useNavigate();
  const [subject, setSubject] = useState(draft?.subject ?? '');
  const [content, setContent] = useState(draft?.content ?? '');
  const [saved, setSaved] = useState({ subject: draft?.subject ?? '', content: draft?.content ?? '' });
  const [mode, setMode] = useState<Mode>('editor');
  const [width, setWidth] = useState<Width>('desktop');
  const [date, setDate] = useState(() => (draft?.scheduledAt ? firmDateOf(draft.scheduledAt) : addCalendarDays(firmToday(firm.timeZone), 1)));
  const [time, setTime] = useState(() => (draft?.scheduledAt ? firmTimeOf(draft.scheduledAt) : '09:00'));
  const [errors, setErrors] = useState<Partial<Record<'subject' | 'content' | 'date' | 'time', string>>>({});
  const save = useSaveDraft();
  const schedule = useScheduleDraft();
  const cancel = useCancelSchedule();
  const template = useNewsletterTemplate();
  const fallback = fallbackTemplate(useContent().firm.name);
  const ai = useAiDraft();
  const current = draft;
  const status = current?.status ?? 'draft';
  const locked = status === 'sending' || status === 'sent';
  const dirty = subject !== saved.subject || content !== saved.content;
  const preview = useLivePreview(subject, content);

  function fieldErrors(error: unknown) {
    const fields = error instanceof ApiError && typeof error.body === 'object' && error.body ? (error.body as { fields?: Record<string, string[]> }).fields : undefined;
    setErrors(Object.fromEntries(Object.entries(fields ?? {}).map(([k, v]) => [k, v[0]])));
  }

  /** Saves when needed; the draft's id (a new draft gets one and the address names it). */
  async function saveNow(): Promise<number | null> {
    if (current && !dirty) return current.id;
    setErrors({});
    try {
      const answer = await save.mutateAsync({ id: current?.id ?? null, subject, content });
      setSaved({ subject, content: answer.draft?.content ?? content });
      if (!current && answer.draft) navigate(`/admin/newsletters/edit?id=${answer.draft.id}`, { replace: true });
      return answer.draft?.id ?? null;
    } catch (error) {
      fieldErrors(error);
      toast({ variant: 'destructive', title: 'Error', description: errorMessage(error, 'Failed to save the draft') });
      return null;
    }
  }

  async function onSave() {
    const id = await saveNow();
    if (id !== null) toast({ title: 'Draft saved', description: subject });
  }

  async function onSchedule() {
    const id = await saveNow();
    if (id === null) return;
    try {
      const answer = await schedule.mutateAsync({ id, date, time });
      setErrors({});
      toast({ title: 'Newsletter scheduled', description: answer.message });
    } catch (error) {
      fieldErrors(error);
      toast({ variant: 'destructive', title: 'Error', description: errorMessage(error, 'Failed to schedule the newsletter') });
    }
  }

  function onCancelSchedule() {
    if (!current) return;
    cancel.mutate(current.id, {
      onSuccess: (answer) => toast({ title: 'Schedule cancelled', description: answer.message }),
      onError: (error) => toast({ variant: 'destructive', title: 'Error', description: errorMessage(error, 'Failed to cancel the schedule') }),
    });
  }

  function loadTemplate() {
    template.mutate(undefined, {
      onSuccess: (t) => {
        setSubject((s) => s || t.subject);
        setContent(t.htmlContent);
      },
      onError: () => {
        setSubject((s) => s || fallback.subject);
        setContent(fallback.htmlContent);
      },
    });
  }

  function loadAiDraft() {
    ai.mutate(undefined, {
      onSuccess: (d) => {
        setSubject(d.subject);
        setContent(d.htmlContent);
        toast(d.aiUnavailable ? { title: 'AI draft unavailable', description: 'The static template was opened instead.' } : { title: 'AI draft opened', description: 'Edit it before saving.' });
      },
      onError: (error) => toast({ variant: 'destructive', title: 'Error', description: errorMessage(error, 'Failed to generate the AI draft') }),
    });
  }

  const busy = save.isPending || schedule.isPending || cancel.isPending;

  return (
    <section className="mx-auto max-w-7xl space-y-6 px-4 py-10 [overflow-wrap:anywhere] sm:px-6 lg:px-8">
      <AdminSubPageHeading
        title="Newsletter Editor"
        intro="Write, preview and schedule a newsletter"
        actions={
          <div className="flex flex-wrap items-center gap-2">
            <DraftStatusBadge status={status} />
            {dirty && !locked && <span className="text-sm text-slate-600">Unsaved changes</span>}
            <Link to="/admin/newsletters" className="inline-flex min-h-6 items-center text-sm text-brand-700 hover:underline">
              All drafts
            </Link>
          </div>
        }
      />
      {current?.error && (
        <p role="alert" className="rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
          {current.error}
        </p>
      )}
      {locked && (
        <p className="rounded-md border border-slate-200 bg-slate-50 p-3 text-sm text-slate-700">
          This newsletter has gone out (see Sent Newsletters History on the <Link to="/admin/subscribers" className="text-brand-700 underline">Subscribers</Link> page); it can no longer be changed.
        </p>
      )}

      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <div className="min-w-0 space-y-4">
          <div>
            <Label htmlFor="draft-subject">Subject</Label>
            <Input
              id="draft-subject"
              maxLength={200}
              value={subject}
              disabled={locked}
              onChange={(e) => setSubject(e.target.value)}
              {...(errors.subject ? { 'aria-invalid': true, 'aria-describedby': 'draft-subject-error' } : {})}
            />
            <FieldError id="draft-subject-error" message={errors.subject} />
          </div>
          <div>
            <div className="mb-1 flex flex-wrap items-center justify-between gap-2">
              <span id="draft-content-label" className="text-sm font-medium text-slate-800">
                Content
              </span>
              <PressedChoice label="Editing mode" value={mode} onChange={setMode} options={MODES} />
            </div>
            {locked ? (
              <NewsletterFrame html={content} title="Newsletter content" className="h-72" />
            ) : mode === 'editor' ? (
              <Suspense fallback={<div className="flex min-h-72 items-center justify-center rounded-md border border-slate-300" role="status" aria-label="Loading the editor"><Loader2 className="h-6 w-6 animate-spin text-brand-700" aria-hidden="true" /></div>}>
                <RichTextEditor value={content} onChange={setContent} labelledBy="draft-content-label" />
              </Suspense>
            ) : (
              <Textarea aria-labelledby="draft-content-label" rows={16} className="font-mono text-xs" value={content} onChange={(e) => setContent(e.target.value)} />
            )}
            <FieldError id="draft-content-error" message={errors.content} />
            <p className="mt-1 text-xs text-slate-600">
              The template automatically adds social links, contact info and an unsubscribe link. HTML mode keeps styles the editor cannot show; unsafe HTML is removed when saved.
            </p>
          </div>
          {!locked && (
            <div className="flex flex-wrap gap-2">
              <Button onClick={() => void onSave()} disabled={busy}>
                {save.isPending ? <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" /> : <Save className="h-4 w-4" aria-hidden="true" />}
                Save Draft
              </Button>
              <Button icon={FileText} variant="outline" onClick={loadTemplate} disabled={template.isPending}>Load Template</Button>
              <Button variant="outline" onClick={loadAiDraft} disabled={ai.isPending}>
                {ai.isPending ? <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" /> : <Sparkles className="h-4 w-4" aria-hidden="true" />}
                {ai.isPending ? 'Generating (15-20s)...' : 'AI Draft'}
              </Button>
            </div>
          )}

          {!locked && (
            <PanelCard id="draft-schedule-title" title="Schedule" icon={CalendarClock} intro={`Sent by the scheduler at that minute, ${ZONE}, to every active subscriber.`}>
              <CardContent className="space-y-3">
                {status === 'scheduled' && current?.scheduledAt && (
                  <p className="text-sm font-medium text-brand-800" data-testid="scheduled-for">
                    Scheduled for {formatDateTime(current.scheduledAt)}
                  </p>
                )}
                <div className="grid gap-3 sm:grid-cols-2">
                  <div>
                    <Label htmlFor="draft-date">Date</Label>
                    <Input id="draft-date" type="date" value={date} onChange={(e) => setDate(e.target.value)} {...(errors.date ? { 'aria-invalid': true, 'aria-describedby': 'draft-date-error' } : {})} />
                    <FieldError id="draft-date-error" message={errors.date} />
                  </div>
                  <div>
                    <Label htmlFor="draft-time">Time ({ZONE})</Label>
                    <Input id="draft-time" type="time" step={60} value={time} onChange={(e) => setTime(e.target.value)} {...(errors.time ? { 'aria-invalid': true, 'aria-describedby': 'draft-time-error' } : {})} />
                    <FieldError id="draft-time-error" message={errors.time} />
                  </div>
                </div>
                <div className="flex flex-wrap gap-2">
                  <Button onClick={() => void onSchedule()} disabled={busy}>
                    {schedule.isPending ? <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" /> : <CalendarClock className="h-4 w-4" aria-hidden="true" />}
                    {status === 'scheduled' ? 'Reschedule' : 'Schedule'}
                  </Button>
                  {status === 'scheduled' && (
                    <Button icon={CalendarX} variant="outline" onClick={onCancelSchedule} disabled={busy}>Cancel Schedule</Button>
                  )}
                </div>
              </CardContent>
            </PanelCard>
          )}
        </div>

        <PanelCard id="draft-preview-title" title="Preview" intro="As subscribers will see it, in the firm's template.">
          <CardContent className="space-y-3">
            <PressedChoice label="Preview width" value={width} onChange={setWidth} options={WIDTHS} />
            <div className="overflow-x-auto">
              <div className={width === 'phone' ? 'mx-auto w-[375px] max-w-full' : 'w-full'} data-testid="preview-viewport" data-width={width}>
                <NewsletterFrame html={preview} title="Newsletter preview" className="h-[40rem]" draft={!locked} />
              </div>
            </div>
          </CardContent>
        </PanelCard>
      </div>
    </section>
  );
}

/** The issue in the firm's frame, re-rendered by the server a moment after each change. */
function useLivePreview(subject: string, content: string): string {
  const [html, setHtml] = useState('');
  useEffect(() => {
    let stale = false;
    const timer = setTimeout(() => {
      renderNewsletter({ subject, content })
        .then((answer) => {
          if (!stale) setHtml(answer.html);
        })
        .catch(() => undefined); // the last preview stays; saving reports real errors
    }, PREVIEW_DELAY_MS);
    return () => {
      stale = true;
      clearTimeout(timer);
    };
  }, [subject, content]);
  return html;
}

const firmParts = new Intl.DateTimeFormat('en-CA', { timeZone: firm.timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
const part = (iso: string, type: string) => firmParts.formatToParts(new Date(iso)).find((p) => p.type === type)?.value ?? '';
const firmDateOf = (iso: string) => `${part(iso, 'year')}-${part(iso, 'month')}-${part(iso, 'day')}`;
const firmTimeOf = (iso: string) => `${part(iso, 'hour')}:${part(iso, 'minute')}`;

/** Buttons of which one is pressed (aria-pressed), in one labelled group: the editing mode, the preview's width. */
function PressedChoice<T extends string>({ label, value, onChange, options }: { label: string; value: T; onChange: (value: T) => void; options: [T, ReactNode][] }) {
  return (
    <div role="group" aria-label={label} className="inline-flex rounded-md border border-slate-300 p-0.5">
      {options.map(([option, text]) => (
        <button
          key={option}
          type="button"
          aria-pressed={value === option}
          onClick={() => onChange(option)}
          className="inline-flex min-h-8 items-center gap-1 rounded px-3 text-sm text-slate-700 aria-pressed:bg-brand-700 aria-pressed:text-white"
        >
          {text}
        </button>
      ))}
    </div>
  );
}
