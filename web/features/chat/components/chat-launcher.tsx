import { MessageCircle, X } from 'lucide-react';
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { trackButtonClick } from '../../../lib/analytics';
import { newChatSessionId } from '../chat-session';
import type { ChatContent } from './chat-panel';

// The panel (messages, suggestions, the API call) is its own chunk: a page costs only this button
// until the visitor shows interest (hover or focus starts the download, a click shows it).
const loadChatPanel = () => import('./chat-panel');
const ChatPanel = lazy(loadChatPanel);

const preload = () => {
  void loadChatPanel().catch(() => undefined);
};

/** docs/product.md §4: the floating round chat button at the bottom right of every page; its props are the panel's content. */
export function ChatLauncher({ firmName, questionGroups, clientPortal }: ChatContent) {
  const [open, setOpen] = useState(false);
  // One session per widget instance (docs/product.md §4), created on first open, kept across reopenings.
  const [sessionId, setSessionId] = useState<string | null>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const wasOpen = useRef(false);

  // Rendered only once hydrated: a prerendered button would ignore clicks until React takes over.
  const [interactive, setInteractive] = useState(false);
  useEffect(() => setInteractive(true), []);

  const close = useCallback(() => setOpen(false), []);

  const toggle = () => {
    if (open) {
      close();
      return;
    }
    setSessionId((current) => current ?? newChatSessionId());
    setOpen(true);
    trackButtonClick('Open Chat', 'Chat');
  };

  // Closing (with the close button or Escape) returns the focus to this button.
  useEffect(() => {
    if (wasOpen.current && !open) buttonRef.current?.focus();
    wasOpen.current = open;
  }, [open]);

  if (!interactive) return null;

  return (
    <>
      {open && sessionId && (
        <Suspense fallback={<ChatPanelLoading />}>
          <ChatPanel key={sessionId} firmName={firmName} questionGroups={questionGroups} clientPortal={clientPortal} sessionId={sessionId} onClose={close} onRestart={() => setSessionId(newChatSessionId())} />
        </Suspense>
      )}
      <button
        ref={buttonRef}
        type="button"
        onClick={toggle}
        onPointerEnter={preload}
        onFocus={preload}
        aria-label={open ? 'Close chat' : 'Chat with us'}
        aria-expanded={open}
        aria-controls={open ? 'chat-panel' : undefined}
        className="fixed bottom-5 right-4 z-40 flex h-14 w-14 items-center justify-center rounded-full bg-brand-700 text-white shadow-lg shadow-brand-900/30 transition-colors hover:bg-brand-800 sm:bottom-6 sm:right-6"
      >
        {open ? <X className="h-6 w-6" aria-hidden="true" /> : <MessageCircle className="h-6 w-6" aria-hidden="true" />}
      </button>
    </>
  );
}

function ChatPanelLoading() {
  return (
    <div
      role="status"
      className="fixed bottom-24 right-4 z-40 rounded-lg border border-slate-200 bg-white px-4 py-3 text-sm text-slate-600 shadow-lg sm:right-6"
    >
      Opening chat...
    </div>
  );
}
