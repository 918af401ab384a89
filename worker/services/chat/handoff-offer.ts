// When the assistant offers the hand-off to a person (docs/product.md §4.2): the visitor asks for
// one, or the answer says the assistant cannot help. The widget then shows "Talk to a person"
// under the reply (the action is always in the panel too).
import { defaultContent } from '#core/content/default-content';
import type { SiteContent } from '#core/content/schema';

const WANTS_PERSON =
  /\b(talk|speak|chat|connect|put me through|get me)\b[^.?!]{0,30}\b(human|humans|person|people|someone|somebody|agent|representative|staff|cpa|accountant|team|real)\b|\b(live agent|real person|human being|a human|representative)\b/i;

/** The visitor asks for a person rather than the assistant. */
export const wantsPerson = (message: string) => WANTS_PERSON.test(message);

// What "I can't help with that" looks like in a reply, whichever model wrote it.
const CANNOT_HELP =
  /\b(i (don't|do not) have (a ready answer|that (detail|information)|information|details?)|i('m| am) (not able|unable) to (help|answer)|i can(no|')t (help|answer)|(outside|beyond) (of )?(what|the scope))\b/i;

/** True when the reply to this message should offer "Talk to a person". */
export function offersHandoff(message: string, reply: string): boolean {
  return wantsPerson(message) || CANNOT_HELP.test(reply);
}

/** The offline assistant's answer to "can I talk to a person?", with the firm's published phone and hours. */
export const personReply = (firm: SiteContent['firm']) =>
  `Of course. Choose "Talk to a person" below and leave your name and e-mail address: our team receives this conversation and will get back to you. You can also call us at ${firm.contact.phone} (${firm.hoursSummary}).`;

/** The answer with the default content. */
export const PERSON_REPLY = personReply(defaultContent.firm);
