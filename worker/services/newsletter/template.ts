import { firm as firmCode } from '#core/content/firm';
import { firmDateParts } from '#core/firm-time';
import { firmAddressLine, type FirmFacts } from '#core/content/firm-facts';
import { escapeHtml } from '../platform/html';

/**
 * Text with the entities escapeHtml writes (and &nbsp;, as a space) turned back into characters,
 * for HTML whose tags are already stripped. &amp; goes first, as escapeHtml writes it first.
 */
export function decodeBasicEntities(text: string): string {
  return text
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'");
}

/** A plain-text rendering of newsletter HTML for the text/plain part. */
export function htmlToText(html: string): string {
  const stripped = html
    .replace(/<(br|\/p|\/div|\/h[1-6]|\/li|\/tr)\s*\/?>/gi, '\n')
    .replace(/<li[^>]*>/gi, '- ')
    .replace(/<a\s[^>]*href="([^"]*)"[^>]*>([\s\S]*?)<\/a>/gi, (_m, href: string, label: string) => `${label.replace(/<[^>]*>/g, '')} (${href})`)
    .replace(/<[^>]*>/g, '');
  return decodeBasicEntities(stripped)
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

export interface NewsletterEmailParts {
  subject: string;
  /** Already sanitised body HTML. */
  bodyHtml: string;
  /**
   * The recipient's own unsubscribe link; null for the public web archive (no recipient, so no
   * personal link: the footer invites visitors to subscribe instead).
   */
  unsubscribeUrl: string | null;
  origin: string;
  /** The firm as published (worker/services/content/published.ts): the header, contact details, address and social links. */
  firm: FirmFacts;
}

/**
 * The frame every newsletter is sent in (docs/product.md §5.3: social links, contact details and an
 * unsubscribe link are added automatically), plus the firm's postal address (CAN-SPAM).
 */
export function renderNewsletterEmail(parts: NewsletterEmailParts): { html: string; text: string } {
  const { firm } = parts;
  const social = firm.social
    .map((s) => `<a href="${escapeHtml(s.href)}" style="color: #1e3a8a; text-decoration: none; margin: 0 8px;">${escapeHtml(s.name)}</a>`)
    .join(' | ');
  const site = `<a href="${escapeHtml(parts.origin)}" style="color: #475569;">${escapeHtml(parts.origin.replace(/^https?:\/\//, ''))}</a>`;
  const closing =
    parts.unsubscribeUrl === null
      ? `This is the web edition of the ${escapeHtml(firm.name)} newsletter. Subscribe at ${site} to receive the next issue by e-mail.`
      : `You receive this e-mail because you subscribed to the ${escapeHtml(firm.name)} newsletter at ${site}.<br>
<a href="${escapeHtml(parts.unsubscribeUrl)}" style="color: #1e3a8a;">Unsubscribe</a> from these e-mails at any time.`;
  const html = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(parts.subject)}</title></head>
<body style="margin: 0; padding: 0; background-color: #f1f5f9; font-family: Arial, Helvetica, sans-serif; color: #0f172a;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background-color: #f1f5f9;"><tr><td align="center" style="padding: 24px 12px;">
<table role="presentation" width="600" cellpadding="0" cellspacing="0" style="max-width: 600px; width: 100%; background-color: #ffffff; border-radius: 8px;">
<tr><td style="background-color: #1e3a8a; color: #ffffff; padding: 20px 24px; border-radius: 8px 8px 0 0;"><strong style="font-size: 20px;">${escapeHtml(firm.name)}</strong><br><span style="font-size: 13px;">${escapeHtml(firm.tagline)}</span></td></tr>
<tr><td style="padding: 24px; font-size: 15px; line-height: 1.6;">${parts.bodyHtml}</td></tr>
<tr><td style="padding: 16px 24px; border-top: 1px solid #e2e8f0; text-align: center; font-size: 14px;">${social}</td></tr>
<tr><td style="padding: 16px 24px; font-size: 12px; line-height: 1.6; color: #475569; text-align: center;">
${escapeHtml(firm.legalName)}<br>${escapeHtml(firmAddressLine(firm))}<br>
Phone: <a href="${escapeHtml(firm.contact.phoneHref)}" style="color: #475569;">${escapeHtml(firm.contact.phone)}</a> &middot; Email: <a href="mailto:${escapeHtml(firm.contact.email)}" style="color: #475569;">${escapeHtml(firm.contact.email)}</a><br>
${closing}
</td></tr>
</table></td></tr></table>
</body></html>`;
  const text = [
    parts.subject,
    '',
    htmlToText(parts.bodyHtml),
    '',
    '--',
    firm.legalName,
    firmAddressLine(firm),
    `Phone: ${firm.contact.phone} | Email: ${firm.contact.email}`,
    firm.social.map((s) => `${s.name}: ${s.href}`).join('\n'),
    '',
    parts.unsubscribeUrl === null ? `Subscribe: ${parts.origin}` : `Unsubscribe: ${parts.unsubscribeUrl}`,
  ].join('\n');
  return { html, text };
}

export interface NewsletterDraft {
  subject: string;
  htmlContent: string;
}

function callToAction(origin: string, label = 'Schedule a Free Consultation'): string {
  return `<p style="text-align: center; margin: 24px 0;"><a href="${escapeHtml(origin)}/schedule" style="background-color: #1e3a8a; color: #ffffff; padding: 12px 24px; border-radius: 6px; text-decoration: none; font-weight: bold; display: inline-block;">${escapeHtml(label)}</a></p>`;
}

const SEASONS: { months: number[]; title: string; tips: string[] }[] = [
  {
    months: [1, 2, 3, 4],
    title: 'Tax Season Checklist',
    tips: [
      'Gather your W-2s, 1099s and 1098s as they arrive and keep them in one folder.',
      'Check whether you qualify for education, child or energy credits before you file.',
      'Federal individual returns are due April 15; an extension moves the filing date, not the payment date.',
      'Contribute to an IRA for last year until the filing deadline to lower your taxable income.',
    ],
  },
  {
    months: [5, 6, 7, 8],
    title: 'Mid-Year Tax Planning',
    tips: [
      'The second estimated tax payment is due June 15; the third on September 15.',
      'Review your withholding after a raise, a move, a wedding or a new child.',
      'Log business mileage now: the 2025 standard rate is 70 cents per mile.',
      'Summer day camp can count toward the child and dependent care credit.',
    ],
  },
  {
    months: [9, 10, 11, 12],
    title: 'Year-End Tax Moves',
    tips: [
      'Harvest investment losses before December 31 to offset gains.',
      'Make charitable gifts before year end, and keep the receipts.',
      'Take required minimum distributions on time to avoid penalties.',
      'Maximise 401(k) and HSA contributions while the year is still open.',
    ],
  },
];

/** The static newsletter for the current season in the firm's time zone (the AI preview's fallback). */
export function staticNewsletter(firm: FirmFacts, origin: string, at: Date = new Date()): NewsletterDraft {
  const { month, year } = firmDateParts(firmCode.timeZone, at);
  const season = SEASONS.find((s) => s.months.includes(month)) ?? SEASONS[0];
  const monthName = new Intl.DateTimeFormat('en-US', { month: 'long', timeZone: 'UTC' }).format(new Date(Date.UTC(year, month - 1, 1)));
  const htmlContent = [
    `<h2 style="color: #1e3a8a;">${escapeHtml(season.title)}: ${monthName} ${year}</h2>`,
    `<p>Hello from everyone at ${escapeHtml(firm.name)}! Here are a few things worth doing this month to keep more of what you earn.</p>`,
    `<ul>${season.tips.map((tip) => `<li>${escapeHtml(tip)}</li>`).join('')}</ul>`,
    `<p>Questions about your own situation? Our CPAs offer a free initial consultation, in person in ${escapeHtml(firm.contact.address.city)} or online.</p>`,
    callToAction(origin),
  ].join('\n');
  return { subject: `${firm.name} ${monthName} ${year} Newsletter: ${season.title}`, htmlContent };
}

/**
 * The sample body behind the admin's "Load Template" button (docs/product.md §5.3: with a
 * call-to-action to /schedule).
 */
export function sampleTemplate(firm: FirmFacts, origin: string): NewsletterDraft {
  const htmlContent = [
    '<h2 style="color: #1e3a8a;">Your Headline Here</h2>',
    '<p>Dear valued client,</p>',
    '<p>Write the main message of this newsletter here: a tax deadline, a new service, or a tip that saves our clients money.</p>',
    '<h3>This Month\'s Tips</h3>',
    '<ul><li>First tip</li><li>Second tip</li><li>Third tip</li></ul>',
    '<p>As always, we are here to help with any questions.</p>',
    callToAction(origin, 'Schedule an Appointment'),
    `<p>Best regards,<br>The ${escapeHtml(firm.name)} Team</p>`,
  ].join('\n');
  return { subject: `${firm.name} Newsletter`, htmlContent };
}
