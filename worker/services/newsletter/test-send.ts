import type { Bindings } from '../../env';
import { enqueue } from '../email/enqueue';
import type { SendOutcome } from '../../mail-types';
import { publishedContent } from '../content';
import { testNewsletterEmail, testUnsubscribeUrl } from './emails';
import { sanitizeHtml } from './sanitize-html';
import { renderNewsletterEmail } from './template';

/**
 * Sends the test through the deployment's transport, logged in email_log like any other e-mail.
 * It writes nothing else: no sent_newsletters row, no delivery, no subscriber.
 */
export async function sendTestNewsletter(env: Bindings, draft: { subject: string; content: string; to: string }, origin: string): Promise<SendOutcome | 'empty-content'> {
  const message = testNewsletterEmail(draft, origin, (await publishedContent(env)).firm);
  if (!message) return 'empty-content';
  const [outcome] = await enqueue({ env }, [message]);
  // Not even logged (the e-mail log is down): a server error, as for any failed write.
  if (!outcome) throw new Error('The test e-mail could not be logged');
  return outcome;
}

/**
 * The editor's live preview: the issue as a subscriber would get it, the body sanitised in the
 * firm's frame, with an unsubscribe link that works for nobody (the test send's).
 */
export async function renderDraftPreview(env: Bindings, draft: { subject: string; content: string }, origin: string): Promise<{ html: string }> {
  const { firm } = await publishedContent(env);
  const { html } = renderNewsletterEmail({ subject: draft.subject, bodyHtml: sanitizeHtml(draft.content), unsubscribeUrl: testUnsubscribeUrl(origin), origin, firm });
  return { html };
}
