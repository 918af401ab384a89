import { Loader2, Send, UserRound, X } from 'lucide-react';
import { useEffect, useId, useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import { CHAT_MESSAGE_MAX_LENGTH, chatRequestSchema, type ChatSource } from '#core/schemas/chat';
import type { SiteContent } from '#core/content/schema';
import { noticeProps, SensitiveNumberNotice } from '../../../components/ui/sensitive-number-notice';
import { ApiError } from '../../../lib/api';
import { streamChatMessage } from '../api/stream-chat-message';
import { ChatMessageText } from './chat-message-text';
import { HandoffForm } from './handoff-form';

type ChatRole = 'user' | 'assistant' | 'error';
interface ChatBubble {
  id: number;
  role: ChatRole;
  content: string;
  /** A reply that did not finish: the visitor stopped it, or the connection failed midway. */
  note?: 'stopped' | 'interrupted';
  /** The pages the reply relied on (docs/product.md §4). */
  sources?: ChatSource[];
  /** The reply offers "Talk to a person" (§4.2). */
  offerHandoff?: boolean;
}

const noteText = { stopped: 'Stopped', interrupted: 'Interrupted' } as const;

const sourcesLead = (sources: ChatSource[]) => (sources.length === 1 ? 'Source: ' : 'Sources: ');

/** What the chat widget shows of the published content (the chat island's JSON props). */
export type ChatContent = {
  firmName: string;
  questionGroups: SiteContent['chat']['suggestedQuestionGroups'];
  /** The Client Portal address, where the chat sends a visitor who types an SSN or account number. */
  clientPortal: string;
};

/** docs/product.md §4: the single message the list resets to on every open. */
export const chatGreeting = (firmName: string) => `Hello! I'm your ${firmName} assistant. I can help with questions about tax planning, business advisory, or bookkeeping services. How can I assist you today?`;
/** docs/product.md §4: what a failed request shows. */
export const CHAT_ERROR_MESSAGE =
  "I'm having trouble connecting to our services right now. Please try again later or contact us directly.";

const bubbleClass: Record<ChatRole, string> = {
  user: 'ml-auto rounded-br-sm bg-brand-700 text-white',
  assistant: 'mr-auto rounded-bl-sm bg-slate-100 text-slate-800',
  error: 'mr-auto rounded-bl-sm border border-red-200 bg-red-50 text-red-800',
};

const roleLabel: Record<ChatRole, string> = { user: 'You', assistant: 'Assistant', error: 'Error' };

/**
 * docs/product.md §4: the 'Chat with us' panel. Mounted on open and unmounted on close, so every
 * open starts again from the greeting. A non-modal dialog: the page stays usable beside it.
 */
export default function ChatPanel({
  firmName,
  questionGroups: suggestedQuestionGroups,
  clientPortal,
  sessionId,
  onClose,
  onRestart,
}: ChatContent & { sessionId: string; onClose: () => void; onRestart: () => void }) {
  const [messages, setMessages] = useState<ChatBubble[]>([{ id: 0, role: 'assistant', content: chatGreeting(firmName) }]);
  // The server holds this conversation once a first reply is complete: from then on it can be
  // handed to a person (§4.2). 'sent' once it has been.
  const [conversation, setConversation] = useState<'new' | 'stored' | 'full'>('new');
  const [handoff, setHandoff] = useState<'closed' | 'open' | 'sent'>('closed');
  const handoffRef = useRef<HTMLDivElement>(null);
  const [input, setInput] = useState('');
  const [pending, setPending] = useState(false);
  // The first piece of the reply has arrived: "Thinking..." gives way to the growing bubble.
  const [streaming, setStreaming] = useState(false);
  const abortRef = useRef<AbortController | null>(null);
  // The view follows the newest text unless the visitor has scrolled up to read.
  const pinned = useRef(true);
  const lastScrollTop = useRef(0);
  const [announcement, setAnnouncement] = useState('');
  const inputRef = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const nextId = useRef(1);
  const mounted = useRef(true);
  const titleId = useId();
  const inputId = useId();
  const noticeId = useId();

  useEffect(() => {
    mounted.current = true;
    inputRef.current?.focus();
    return () => {
      mounted.current = false;
      abortRef.current?.abort();
    };
  }, []);

  // Escape closes the panel wherever the focus is.
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !event.defaultPrevented) onClose();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [onClose]);

  // Keep the newest text in view while the visitor has not scrolled up (before paint: no jump).
  useLayoutEffect(() => {
    const list = listRef.current;
    if (!list || messages.length < 2 || !pinned.current) return;
    list.scrollTop = list.scrollHeight;
    lastScrollTop.current = list.scrollTop;
  }, [messages, pending]);

  // The hand-off form opens at the end of the conversation: bring it into view.
  useEffect(() => {
    if (handoff === 'open') handoffRef.current?.scrollIntoView?.({ block: 'nearest' });
  }, [handoff]);

  // Scrolling up unpins the view; scrolling back to the bottom pins it again. (Text growing below
  // does not move scrollTop, so it never counts as scrolling up.)
  const onScroll = () => {
    const list = listRef.current;
    if (!list) return;
    if (list.scrollHeight - list.scrollTop - list.clientHeight < 24) pinned.current = true;
    else if (list.scrollTop < lastScrollTop.current) pinned.current = false;
    lastScrollTop.current = list.scrollTop;
  };

  // After a reply the input is enabled again: give it the focus back for the next question.
  useEffect(() => {
    if (!pending && messages.length > 1) inputRef.current?.focus();
  }, [pending, messages.length]);

  const append = (role: ChatRole, content: string) =>
    setMessages((current) => [...current, { id: nextId.current++, role, content }]);

  async function send(text: string) {
    if (pending) return;
    const parsed = chatRequestSchema.safeParse({ message: text, sessionId });
    // docs/product.md §4: a message blank after trimming is ignored and not sent.
    if (!parsed.success) return;
    const { message } = parsed.data;
    pinned.current = true;
    append('user', message);
    setInput('');
    setPending(true);
    setAnnouncement('Thinking...');
    const controller = new AbortController();
    abortRef.current = controller;
    // The reply's bubble, made when its first piece arrives.
    let replyId: number | undefined;
    let partial = '';
    const update = (change: Partial<ChatBubble>) =>
      setMessages((current) => current.map((bubble) => (bubble.id === replyId ? { ...bubble, ...change } : bubble)));
    const onDelta = (delta: string) => {
      if (!mounted.current) return;
      partial += delta;
      const content = partial;
      if (replyId === undefined) {
        const id = (replyId = nextId.current++);
        setMessages((current) => [...current, { id, role: 'assistant', content }]);
        setStreaming(true);
      } else {
        update({ content });
      }
    };
    try {
      const { content, sources, offerHandoff } = await streamChatMessage(message, sessionId, { signal: controller.signal, onDelta });
      if (!mounted.current) return;
      // The final event's text is the reply (a guard rail may have replaced what streamed).
      if (replyId === undefined) setMessages((current) => [...current, { id: nextId.current++, role: 'assistant', content, sources, offerHandoff }]);
      else update({ content, sources, offerHandoff });
      setConversation('stored');
      // Screen readers hear the finished reply once, not every piece, with its sources as shown.
      setAnnouncement(sources.length ? `${content}\n${sourcesLead(sources)}${sources.map((s) => s.title).join(', ')}` : content);
    } catch (error) {
      if (!mounted.current) return;
      if (error instanceof ApiError && error.status === 409 && error.serverMessage) {
        // The conversation is full (§4.1): say so, and offer a fresh one.
        append('error', error.serverMessage);
        setConversation('full');
        setAnnouncement(error.serverMessage);
      } else if (controller.signal.aborted) {
        if (replyId !== undefined) update({ note: 'stopped' });
        setAnnouncement('Reply stopped.');
      } else {
        if (replyId !== undefined) update({ note: 'interrupted' });
        append('error', CHAT_ERROR_MESSAGE);
        setInput('');
        setAnnouncement(CHAT_ERROR_MESSAGE);
      }
    } finally {
      if (abortRef.current === controller) abortRef.current = null;
      if (mounted.current) {
        setPending(false);
        setStreaming(false);
      }
    }
  }

  const stop = () => abortRef.current?.abort();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void send(input);
  };

  const showSuggestions = messages.length === 1;
  const canHandOff = conversation !== 'new' && handoff === 'closed' && !pending;
  const lastReplyId = messages.findLast((bubble) => bubble.role === 'assistant')?.id;

  const onHandoffSent = (confirmation: string) => {
    setHandoff('sent');
    append('assistant', confirmation);
    setAnnouncement(confirmation);
  };

  return (
    <section
      id="chat-panel"
      role="dialog"
      aria-modal="false"
      aria-labelledby={titleId}
      className="fixed bottom-[5.5rem] right-4 z-40 flex w-[calc(100vw-2rem)] max-w-sm flex-col overflow-hidden rounded-xl border border-slate-200 bg-white shadow-2xl shadow-brand-900/20 sm:bottom-24 sm:right-6"
    >
      <div className="flex items-center justify-between bg-brand-700 px-4 py-3 text-white">
        <h2 id={titleId} className="text-base font-semibold">
          Chat with us
        </h2>
        <button
          type="button"
          onClick={onClose}
          aria-label="Close chat"
          className="rounded-md p-1 text-white/90 hover:bg-white/10 hover:text-white focus-visible:outline-white"
        >
          <X className="h-5 w-5" aria-hidden="true" />
        </button>
      </div>

      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrolling region must be reachable by keyboard (axe: scrollable-region-focusable) */}
      <div ref={listRef} onScroll={onScroll} aria-label="Chat messages" tabIndex={0} className="relative h-[300px] space-y-3 overflow-y-auto px-4 py-4">
        {messages.map((bubble) => (
          <div
            key={bubble.id}
            data-role={bubble.role}
            className={`w-fit max-w-[85%] whitespace-pre-line break-words rounded-2xl px-3 py-2 text-sm leading-relaxed ${bubbleClass[bubble.role]}`}
          >
            <span className="sr-only">{roleLabel[bubble.role]}: </span>
            {bubble.role === 'assistant' ? <ChatMessageText text={bubble.content} /> : bubble.content}
            {bubble.note && <span className="mt-1 block text-xs italic text-slate-500">({noteText[bubble.note]})</span>}
            {bubble.sources && bubble.sources.length > 0 && (
              <span className="mt-1.5 block text-xs text-slate-600">
                {sourcesLead(bubble.sources)}
                {bubble.sources.map((source, index) => (
                  <span key={source.path}>
                    {index > 0 && ', '}
                    <a href={source.path} className="font-medium text-brand-700 underline underline-offset-2 hover:no-underline">
                      {source.title}
                    </a>
                  </span>
                ))}
              </span>
            )}
            {bubble.offerHandoff && bubble.id === lastReplyId && canHandOff && (
              <TalkToPersonButton
                onClick={() => setHandoff('open')}
                className="rounded-full border border-brand-600 bg-white px-3 py-1 hover:bg-brand-50"
              />
            )}
          </div>
        ))}

        {conversation === 'full' && (
          <button
            type="button"
            onClick={onRestart}
            className="rounded-full border border-brand-600 bg-white px-3 py-1 text-xs font-medium text-brand-700 hover:bg-brand-50"
          >
            Start a new conversation
          </button>
        )}

        {handoff === 'open' && (
          <div ref={handoffRef}>
            <HandoffForm sessionId={sessionId} clientPortal={clientPortal} onSent={onHandoffSent} onCancel={() => setHandoff('closed')} />
          </div>
        )}

        {showSuggestions && (
          <div className="space-y-3 pt-1">
            {suggestedQuestionGroups.map((group) => (
              <div key={group.title} role="group" aria-label={`${group.title} questions`}>
                <h3 className="mb-1.5 text-xs font-semibold uppercase tracking-wide text-slate-500">{group.title}</h3>
                <ul className="flex flex-wrap gap-1.5">
                  {group.questions.map((question) => (
                    <li key={question}>
                      <button
                        type="button"
                        onClick={() => void send(question)}
                        className="rounded-full border border-brand-100 bg-brand-50 px-3 py-1 text-left text-xs text-brand-800 hover:border-brand-600 hover:bg-white"
                      >
                        {question}
                      </button>
                    </li>
                  ))}
                </ul>
              </div>
            ))}
          </div>
        )}
      </div>

      <form onSubmit={onSubmit} hidden={handoff === 'open'} className="border-t border-slate-200 px-3 py-3">
        <div className="flex items-center gap-2">
          <label htmlFor={inputId} className="sr-only">
            Type your message
          </label>
          <input
            ref={inputRef}
            id={inputId}
            value={input}
            onChange={(event) => setInput(event.target.value)}
            disabled={pending}
            maxLength={CHAT_MESSAGE_MAX_LENGTH}
            autoComplete="off"
            placeholder="Type your message..."
            {...noticeProps(noticeId, input)}
            className="h-10 min-w-0 flex-1 rounded-md border border-slate-300 bg-white px-3 text-sm text-slate-900 placeholder:text-slate-500 focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/30 disabled:opacity-60"
          />
          <button
            type="submit"
            disabled={pending}
            aria-label="Send message"
            className="flex h-10 w-10 shrink-0 items-center justify-center rounded-md bg-brand-700 text-white hover:bg-brand-800 disabled:opacity-50"
          >
            {pending ? <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" /> : <Send className="h-4 w-4" aria-hidden="true" />}
          </button>
        </div>
        <SensitiveNumberNotice id={noticeId} text={input} portal={clientPortal} className="text-xs" />
        {pending && (
          <div className="mt-2 flex items-center justify-between gap-2 text-xs text-slate-500">
            {streaming ? (
              <span />
            ) : (
              <p className="flex items-center gap-2">
                <Loader2 className="h-3 w-3 animate-spin" aria-hidden="true" />
                Thinking...
              </p>
            )}
            <button
              type="button"
              onClick={stop}
              className="flex items-center gap-1 rounded-md border border-slate-300 px-2 py-1 text-slate-700 hover:border-slate-400 hover:bg-slate-50"
            >
              <span className="h-2 w-2 rounded-[1px] bg-current" aria-hidden="true" />
              Stop
            </button>
          </div>
        )}
        {canHandOff && (
          <TalkToPersonButton onClick={() => setHandoff('open')} className="underline-offset-2 hover:underline" />
        )}
      </form>

      {/* New replies are read out politely, without moving the focus. */}
      <div role="status" aria-live="polite" className="sr-only">
        {announcement}
      </div>
    </section>
  );
}

/** Opens the hand-off form (docs/product.md §4.2): under the reply that offers it, and under the input. */
function TalkToPersonButton({ onClick, className }: { onClick: () => void; className: string }) {
  return (
    <button type="button" onClick={onClick} className={`mt-2 flex items-center gap-1.5 text-xs font-medium text-brand-700 ${className}`}>
      <UserRound className="h-3.5 w-3.5" aria-hidden="true" />
      Talk to a person
    </button>
  );
}
