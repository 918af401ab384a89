import { Reply } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Badge } from '../../../components/ui/badge';
import { Button, SubmitButton } from '../../../components/ui/button';
import { FieldError, Label, Textarea } from '../../../components/ui/input';
import { toast } from '../../../components/ui/use-toast';
import { CONTACT_REPLY_MAX, contactReplySchema } from '#core/schemas/contact';
import { errorMessage } from '../../../lib/api';
import { type ContactReply, useContactReplies, useSendReply } from '../api/replies-api';
import { formatDateTime } from '../lib/format';

// docs/product.md §6.2: "Reply" on a contact message or a chat hand-off opens a plain-text composer
// with the original quoted; the conversation shows under the message, who replied and when.

/** The quoted original, as the e-mail carries it under the reply. */
const quote = (text: string) =>
  text
    .split(/\r?\n/)
    .map((line) => (line ? `> ${line}` : '>'))
    .join('\n');

/** The "Replied" badge of a message the firm has answered from the inbox. */
export function RepliedBadge() {
  return (
    <Badge variant="secondary" data-testid="replied-badge">
      Replied
    </Badge>
  );
}

/**
 * The conversation under a message and its Reply composer. `replied` says whether the message has
 * replies (the inbox knows): only then is the conversation read before the composer is opened.
 * With `composer` the caller holds the composer's state and shows its own Reply button (the
 * inbox's card, where Reply is the main action); without it, the thread shows one.
 */
export function ReplyThread({
  messageId,
  visitorName,
  original,
  replied,
  composer,
}: {
  messageId: number;
  visitorName: string;
  original: string;
  replied: boolean;
  composer?: { open: boolean; onOpenChange: (open: boolean) => void };
}) {
  const [ownOpen, setOwnOpen] = useState(false);
  const open = composer ? composer.open : ownOpen;
  const setOpen = composer ? composer.onOpenChange : setOwnOpen;
  const replies = useContactReplies(messageId, replied || open);
  const list = replies.data ?? [];
  return (
    <div className="space-y-3">
      {list.length > 0 && (
        <section aria-label={`Replies to ${visitorName}`} className="space-y-2 border-l-2 border-slate-200 pl-3" data-testid="reply-thread">
          <ol className="space-y-2">
            {list.map((r) => (
              <ReplyItem key={r.id} reply={r} />
            ))}
          </ol>
        </section>
      )}
      {open ? (
        <ReplyComposer messageId={messageId} visitorName={visitorName} original={original} onClose={() => setOpen(false)} />
      ) : (
        !composer && (
          <Button variant="outline" size="sm" onClick={() => setOpen(true)}>
            <Reply className="h-4 w-4" aria-hidden="true" />
            Reply
          </Button>
        )
      )}
    </div>
  );
}

function ReplyItem({ reply: r }: { reply: ContactReply }) {
  return (
    <li data-testid="reply-item" className="rounded-md bg-slate-50 p-3 text-sm">
      <p className="text-xs text-slate-600">
        <span className="font-medium text-slate-800">{r.authorName}</span> replied on {formatDateTime(r.createdAt)}
        {r.emailStatus === 'failed' && <span className="ml-2 font-medium text-red-700">(e-mail not sent)</span>}
      </p>
      <p className="mt-1 whitespace-pre-wrap break-words text-slate-800">{r.body}</p>
    </li>
  );
}

function ReplyComposer({ messageId, visitorName, original, onClose }: { messageId: number; visitorName: string; original: string; onClose: () => void }) {
  const id = useId();
  const [body, setBody] = useState('');
  const [problem, setProblem] = useState<string | undefined>();
  const send = useSendReply(messageId);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = contactReplySchema.safeParse({ body });
    if (!parsed.success) {
      setProblem(parsed.error.issues[0]?.message);
      return;
    }
    setProblem(undefined);
    send.mutate(parsed.data.body, {
      onSuccess: (answer) => {
        toast({ title: 'Reply sent', description: answer.message });
        setBody('');
        onClose();
      },
      onError: (error) => toast({ variant: 'destructive', title: 'Error', description: errorMessage(error, 'The reply could not be sent') }),
    });
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-2" aria-label={`Reply to ${visitorName}`}>
      <Label htmlFor={`${id}-body`}>Your reply to {visitorName}</Label>
      <Textarea
        id={`${id}-body`}
        rows={6}
        value={body}
        maxLength={CONTACT_REPLY_MAX}
        onChange={(e) => setBody(e.target.value)}
        aria-invalid={problem ? true : undefined}
        aria-describedby={`${id}-hint${problem ? ` ${id}-error` : ''}`}
        // eslint-disable-next-line jsx-a11y/no-autofocus -- opened by the Reply button: the next thing to do is to type
        autoFocus
      />
      <FieldError id={`${id}-error`} message={problem} />
      <p id={`${id}-hint`} className="text-xs text-slate-600">
        Plain text, sent by e-mail from the firm&apos;s address with your name; answers come back to the firm&apos;s inbox. The message is quoted below your reply.
      </p>
      <details className="text-xs text-slate-700">
        <summary className="cursor-pointer py-1">Show the quoted message</summary>
        <pre data-testid="reply-quote" className="whitespace-pre-wrap break-words rounded-md bg-slate-50 p-2 font-sans">
          {quote(original)}
        </pre>
      </details>
      <div className="flex flex-wrap gap-2">
        <SubmitButton size="sm" pending={send.isPending} busy="Sending...">
          Send reply
        </SubmitButton>
        <Button type="button" variant="ghost" size="sm" onClick={onClose} disabled={send.isPending}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
