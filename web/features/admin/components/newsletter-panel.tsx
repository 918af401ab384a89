import { Eye, Loader2, PenLine, Send, Sparkles } from 'lucide-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { CardContent } from '../../../components/ui/card';
import { Dialog, DialogActions } from '../../../components/ui/dialog';
import { toast } from '../../../components/ui/use-toast';
import { errorMessage } from '../../../lib/api';
import { usePreview, useSendGeneratedNewsletter, type NewsletterPreview } from '../api/admin-api';
import { useSaveDraft } from '../api/newsletter-drafts-api';
import { PanelCard } from './admin-page-parts';
import { NewsletterFrame } from './newsletter-frame';

/** What the Newsletter Preview shows: only the AI preview's answer says whether it fell back to the static template. */
type ShownPreview = Omit<NewsletterPreview, 'aiUnavailable'> & Partial<Pick<NewsletterPreview, 'aiUnavailable'>>;

/** docs/product.md §6.2: Quick Preview, AI Preview, Send Newsletter, and the Newsletter Preview they fill. */
export function NewsletterPanel({ activeSubscribers }: { activeSubscribers: number | undefined }) {
  const [preview, setPreview] = useState<ShownPreview | null>(null);
  const [confirmOpen, setConfirmOpen] = useState(false);
  const quick = usePreview('quick');
  const ai = usePreview('ai');
  const send = useSendGeneratedNewsletter();

  const showPreview = (kind: 'quick' | 'ai') =>
    (kind === 'ai' ? ai : quick).mutate(undefined, {
      onSuccess: setPreview,
      onError: (error) => toast({ variant: 'destructive', title: 'Failed to load preview', description: errorMessage(error, 'Please try again') }),
    });

  function sendNow() {
    setConfirmOpen(false);
    send.mutate(undefined, {
      onSuccess: (data) => toast({ title: 'Newsletter sent successfully!', description: `Delivered to ${data.sentCount} subscribers` }),
      onError: (error) => toast({ variant: 'destructive', title: 'Failed to send newsletter', description: errorMessage(error, 'Please try again') }),
    });
  }

  return (
    <PanelCard id="newsletter-heading" title="Newsletter" intro="Preview this month's newsletter, then send it to every active subscriber.">
      <CardContent className="space-y-4">
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" onClick={() => showPreview('quick')} disabled={quick.isPending}>
            {quick.isPending ? <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" /> : <Eye className="h-4 w-4" aria-hidden="true" />}
            Quick Preview
          </Button>
          <Button variant="outline" onClick={() => showPreview('ai')} disabled={ai.isPending}>
            {ai.isPending ? <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" /> : <Sparkles className="h-4 w-4" aria-hidden="true" />}
            {ai.isPending ? 'Generating (15-20s)...' : 'AI Preview'}
          </Button>
          <Button onClick={() => setConfirmOpen(true)} disabled={send.isPending}>
            {send.isPending ? <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" /> : <Send className="h-4 w-4" aria-hidden="true" />}
            {send.isPending ? 'Sending...' : 'Send Newsletter'}
          </Button>
        </div>

        {preview && (
          <section aria-labelledby="preview-heading" className="space-y-2 rounded-md border border-slate-200 bg-slate-50 p-4">
            <h3 id="preview-heading" className="font-semibold text-brand-800">
              Newsletter Preview
            </h3>
            {preview.aiUnavailable && (
              <p role="status" className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
                AI draft unavailable: static template shown
              </p>
            )}
            <p className="text-sm">
              <span className="font-medium">Subject:</span> <span data-testid="preview-subject">{preview.subject}</span>
            </p>
            <NewsletterFrame html={preview.htmlContent} title="Newsletter preview" draft />
            <OpenInEditor preview={preview} />
          </section>
        )}
      </CardContent>

      {/* One click must not mail the whole list by accident: the panel send asks first. */}
      <Dialog
        open={confirmOpen}
        onOpenChange={setConfirmOpen}
        title="Send the newsletter now?"
        description={`This month's generated newsletter goes to ${activeSubscribers ?? 'all'} active subscribers.`}
      >
        <DialogActions cancel="Keep editing" onCancel={() => setConfirmOpen(false)}>
          <Button onClick={sendNow}>Send now</Button>
        </DialogActions>
      </Dialog>
    </PanelCard>
  );
}

/** Saves the previewed issue (the AI draft, or the template) as a new draft and opens it in the editor (docs/product.md §5.9). */
function OpenInEditor({ preview }: { preview: ShownPreview }) {
  const navigate = useNavigate();
  const save = useSaveDraft();
  const open = () =>
    save.mutate(
      { id: null, subject: preview.subject, content: preview.htmlContent },
      {
        onSuccess: (answer) => navigate(`/admin/newsletters/edit?id=${answer.draft?.id ?? ''}`),
        onError: (error) => toast({ variant: 'destructive', title: 'Error', description: errorMessage(error, 'Failed to save the draft') }),
      },
    );
  return (
    <Button variant="outline" onClick={open} disabled={save.isPending}>
      {save.isPending ? <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" /> : <PenLine className="h-4 w-4" aria-hidden="true" />}
      Open in Editor
    </Button>
  );
}
