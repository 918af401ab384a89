import { Fragment } from 'react';

// The site's own pages an answer may mention. Only these become links; everything else a reply
// says stays text (replies are never rendered as HTML).
const SITE_PATH = /(?<![\w/.:])(\/(?:schedule|contact|services|faq|about|resources|privacy-policy))(?![\w/-])/g;

/** A chat reply as plain text, with mentions of the site's pages made clickable. */
export function ChatMessageText({ text, onNavigate }: { text: string; onNavigate?: () => void }) {
  const parts = text.split(SITE_PATH);
  return (
    <>
      {parts.map((part, index) =>
        index % 2 === 1 ? (
          <a key={index} href={part} onClick={onNavigate} className="font-medium underline underline-offset-2 hover:no-underline">
            {part}
          </a>
        ) : (
          <Fragment key={index}>{part}</Fragment>
        ),
      )}
    </>
  );
}
