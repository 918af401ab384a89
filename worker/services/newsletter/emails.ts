import type { Bindings } from '../../env';
import type { OutgoingEmail } from '../../mail-types';
import { escapeHtml } from '../platform/html';
import { publishedContent } from '../content';
import { firmAddressLine, type FirmFacts } from '#core/content/firm-facts';
import type { SubscriptionRow } from './subscriber-list';
import { sanitizeHtml } from './sanitize-html';
import { renderNewsletterEmail } from './template';
import { signLinkToken } from './tokens';

// The newsletter's e-mails besides the issue itself (rendered in the firm's frame by template.ts,
// sent by sender.ts): the double opt-in confirmation, the test to one address, and the
// links the newsletter's e-mails carry.


/**
 * The page (GET shows a Confirm button, changes nothing: link scanners open links) a person lands
 * on from the confirmation e-mail; the button POSTs /api/newsletter/confirm.
 */
export function confirmUrl(origin: string, token: string): string {
  return `${origin}/newsletter/confirm?token=${encodeURIComponent(token)}`;
}

/** The page (GET shows a button, changes nothing) a person lands on from the link in a newsletter. */
export function unsubscribePageUrl(origin: string, token: string): string {
  return `${origin}/newsletter/unsubscribe?token=${encodeURIComponent(token)}`;
}

/** RFC 8058 one-click target: mail clients POST "List-Unsubscribe=One-Click" here. */
export function oneClickUnsubscribeUrl(origin: string, token: string): string {
  return `${origin}/api/newsletter/unsubscribe?token=${encodeURIComponent(token)}`;
}

/**
 * Who asked for the confirmation e-mail: the person, on the sign-up form ('sign-up'), or the firm,
 * which added the address from a CSV import (subscriber-import.ts): that person signed up nowhere,
 * so "If you did not sign up" would read as a mistake; their e-mail says the firm added them and
 * carries an unsubscribe link, so a later import does not add them again (docs/product.md §5.10).
 */
export type ConfirmationReason = 'sign-up' | 'import';

/**
 * The confirmation e-mail goes to an address nobody has verified yet, so it carries nothing the
 * visitor typed except that address: no name in the greeting, the To header or anywhere else
 * (otherwise the form would mail anyone a spammer's text in the firm's name).
 */
export async function confirmationEmail(env: Bindings, row: SubscriptionRow, origin: string, now: Date, reason: ConfirmationReason = 'sign-up'): Promise<OutgoingEmail> {
  const token = await signLinkToken(env.JWT_SECRET, 'newsletter-confirm', row, now);
  const link = confirmUrl(origin, token);
  const { firm } = await publishedContent(env);
  const footer = ['', firm.legalName, firmAddressLine(firm)];
  const footerHtml = `<p style="color: #475569; font-size: 12px;">${escapeHtml(firm.legalName)}<br>${escapeHtml(firmAddressLine(firm))}</p>`;
  const button = `<p><a href="${escapeHtml(link)}" style="background-color: #1e3a8a; color: #ffffff; padding: 10px 20px; border-radius: 6px; text-decoration: none; display: inline-block;">Confirm my subscription</a></p>`;
  if (reason === 'import') {
    const leave = unsubscribePageUrl(origin, await signLinkToken(env.JWT_SECRET, 'newsletter-unsubscribe', row, now));
    const added = `${firm.name} added you to its newsletter list.`;
    const text = [
      'Hello,',
      '',
      `${added} Before we send you anything, please confirm that you want to receive the ${firm.name} newsletter by opening this link:`,
      link,
      '',
      'The link is valid for 7 days. Without your confirmation you will not receive the newsletter.',
      '',
      'If you do not want these e-mails, unsubscribe here and we will not add you again:',
      leave,
      ...footer,
    ].join('\n');
    const html = `<p>Hello,</p>
<p>${escapeHtml(added)} Before we send you anything, please confirm that you want to receive the ${escapeHtml(firm.name)} newsletter.</p>
${button}
<p>The link is valid for 7 days. Without your confirmation you will not receive the newsletter.</p>
<p>If you do not want these e-mails, <a href="${escapeHtml(leave)}">unsubscribe here</a> and we will not add you again.</p>
${footerHtml}`;
    return { to: row.email, subject: `${firm.name} added you to its newsletter list: please confirm`, text, html, kind: 'newsletter-confirmation' };
  }
  const text = [
    'Hello,',
    '',
    `Please confirm that you want to receive the ${firm.name} newsletter by opening this link:`,
    link,
    '',
    'The link is valid for 7 days. If you did not sign up, ignore this e-mail and you will not hear from us again.',
    ...footer,
  ].join('\n');
  const html = `<p>Hello,</p>
<p>Please confirm that you want to receive the ${escapeHtml(firm.name)} newsletter.</p>
${button}
<p>The link is valid for 7 days. If you did not sign up, ignore this e-mail and you will not hear from us again.</p>
${footerHtml}`;
  return {
    to: row.email,
    subject: `Please confirm your subscription to the ${firm.name} newsletter`,
    text,
    html,
    kind: 'newsletter-confirmation',
  };
}

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
