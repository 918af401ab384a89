import type { Bindings } from '../../env';
import { sendEmail } from '../email/send-email';
import type { OutgoingEmail, SendOutcome } from '../../mail-types';
import { sanitizeHtml } from './sanitize-html';
import { renderNewsletterEmail } from './template';
import type { FirmFacts } from '#core/content/firm-facts';
import { publishedContent } from '../content';

/** What marks a test in the inbox and in the e-mail log. */
export const TEST_SUBJECT_PREFIX = '[TEST] ';

/**
 * The unsubscribe link a test carries where a subscriber's own would be: the same page, with a
 * token that is not a signed token at all, so it can never unsubscribe anybody (the page answers
 * "invalid link"). The test has no List-Unsubscribe headers either: there is no subscription to end.
 */
export const testUnsubscribeUrl = (origin: string) => `${origin}/newsletter/unsubscribe?token=test-send`;

/**
 * The issue as a subscriber gets it (the same sanitizer and frame as sender.ts), addressed to one
 * person, its subject marked as a test. Null when nothing is left once unsafe HTML is removed.
 */
export function testNewsletterEmail(draft: { subject: string; content: string; to: string }, origin: string, firm: FirmFacts): OutgoingEmail | null {
  const bodyHtml = sanitizeHtml(draft.content);
  if (!bodyHtml.replace(/<[^>]*>/g, '').trim()) return null;
  const subject = `${TEST_SUBJECT_PREFIX}${draft.subject}`;
  const { html, text } = renderNewsletterEmail({ subject, bodyHtml, unsubscribeUrl: testUnsubscribeUrl(origin), origin, firm });
  return { to: draft.to, subject, text, html, kind: 'newsletter-test' };
}

/**
 * Sends the test through the deployment's transport, logged in email_log like any other e-mail.
 * It writes nothing else: no sent_newsletters row, no delivery, no subscriber.
 */
export async function sendTestNewsletter(env: Bindings, draft: { subject: string; content: string; to: string }, origin: string): Promise<SendOutcome | 'empty-content'> {
  const message = testNewsletterEmail(draft, origin, (await publishedContent(env)).firm);
  if (!message) return 'empty-content';
  return sendEmail(env, message);
}
