import { Hono } from 'hono';
import { getDb } from '../../db/client';
import type { AppEnv } from '../../env';
import { validate } from '../../middleware/validate';
import { testEmailSchema } from '#core/schemas/newsletter';
import { deliveryEventsStatus, enrollDeliveryEvents, mailChannelsAccountId, NO_ACCOUNT_ID_MESSAGE, WebhookManagementError } from '../../services/email/delivery-webhook';
import { emailLogEntry, listEmailLog, type EmailLogRow } from '../../services/email/email-log';
import { REDACTED_SECRET } from '../../mail-redaction';
import { idParamSchema } from '#core/schemas/appointments';
import { checkMailChannels } from '../../services/email/mailchannels';
import { enqueue } from '../../services/email/enqueue';
import { escapeHtml } from '../../services/platform/html';
import { publishedContent } from '../../services/content';
import type { EmailAttachment } from '../../mail-types';
import { siteOrigin } from '../../services/platform/site-origin';
import { audit } from '../../middleware/audit';

/** An entry of the log as the admin API answers it (the list's rows; the single message adds to it). */
function logEntry(r: EmailLogRow) {
  return {
    id: r.id,
    to: r.to,
    subject: r.subject,
    kind: r.kind,
    status: r.status,
    transport: r.transport,
    error: r.error,
    providerId: r.providerId,
    // What MailChannels reported after the hand-off (delivery events): delivered, soft-bounced...
    deliveryStatus: r.deliveryStatus,
    deliveryDetail: r.deliveryDetail,
    deliveryUpdatedAt: r.deliveryUpdatedAt?.toISOString() ?? null,
    createdAt: r.createdAt.toISOString(),
    textBody: r.textBody,
    htmlBody: r.htmlBody,
    headers: r.headers ? (JSON.parse(r.headers) as Record<string, string>) : null,
    // What went out with it (the invite .ics): filename, content type, base64 content.
    attachments: r.attachments ? (JSON.parse(r.attachments) as EmailAttachment[]) : [],
  };
}

/** The e-mail log and the "Email Authentication Setup" block (docs/product.md §7: MailChannels). */
export const adminEmails = new Hono<AppEnv>()
  .get('/emails', async (c) => {
    const rows = await listEmailLog(getDb(c.env.DB));
    return c.json(rows.map(logEntry), 200);
  })
  // One message whole, as the log keeps it (docs/product.md §7 "The e-mail log"): who it was from and
  // for, its headers and bodies with their links' secrets replaced by REDACTED_SECRET, its files.
  .get('/emails/:id', validate('param', idParamSchema), async (c) => {
    const row = await emailLogEntry(getDb(c.env.DB), c.req.valid('param').id);
    if (!row) return c.json({ message: 'No such e-mail in the log' }, 404);
    // The sender's display name was the message's own or, without one, the firm's published name
    // (worker/services/email/delivery.ts emailTransport); the address is always MAIL_FROM.
    const fromName = row.fromName ?? (await publishedContent(c.env)).firm.name;
    const entry = logEntry(row);
    return c.json(
      {
        ...entry,
        from: `${fromName} <${c.env.MAIL_FROM}>`,
        toName: row.toName,
        replyTo: row.replyTo,
        // Whether a link's secret was left out of the kept copy (worker/mail-redaction.ts): the dialog explains it.
        linksNotKept: [row.textBody, row.htmlBody ?? '', row.headers ?? ''].some((text) => text.includes(REDACTED_SECRET)),
      },
      200,
    );
  })
  // "Enable delivery events" (MailChannels webhooks): is this site's URL enrolled, and enroll it.
  .get('/delivery-events', async (c) => {
    try {
      return c.json(await deliveryEventsStatus(c.env, siteOrigin(c.env, c.req.url)), 200);
    } catch (error) {
      if (error instanceof WebhookManagementError) return c.json({ message: error.message }, 502);
      throw error;
    }
  })
  .post('/delivery-events/enroll', async (c) => {
    if (!c.env.MAILCHANNELS_API_KEY) {
      return c.json({ message: 'Delivery events need the MailChannels API key (MAILCHANNELS_API_KEY)' }, 400);
    }
    // The webhook refuses every event without the account id: enrolling first would only queue refusals.
    if (!mailChannelsAccountId(c.env)) return c.json({ message: NO_ACCOUNT_ID_MESSAGE }, 400);
    try {
      const result = await enrollDeliveryEvents(c.env, siteOrigin(c.env, c.req.url));
      await audit(c, 'settings.delivery-events-enroll');
      return c.json({ enrolled: true, ...result }, 200);
    } catch (error) {
      if (error instanceof WebhookManagementError) return c.json({ message: error.message }, 502);
      throw error;
    }
  })
  .post('/email/test-auth', async (c) => {
    const result = await checkMailChannels(c.env);
    return c.json({ results: [result] }, 200);
  })
  .post('/email/test-send', validate('json', testEmailSchema), async (c) => {
    const { testEmail } = c.req.valid('json');
    const { firm } = await publishedContent(c.env);
    const [outcome] = await enqueue({ env: c.env }, [
      {
        to: testEmail,
        subject: `${firm.name} test e-mail`,
        text: `This is a test e-mail from the ${firm.name} admin panel. If you can read it, e-mail delivery works.`,
        html: `<p>This is a test e-mail from the ${escapeHtml(firm.name)} admin panel.</p><p>If you can read it, e-mail delivery works.</p>`,
        kind: 'test',
      },
    ]);
    if (!outcome) throw new Error('The test e-mail could not be logged');
    if (!outcome.ok) return c.json({ success: false, message: outcome.error ?? 'Sending failed' }, 200);
    await audit(c, 'settings.email-test', `email-log:${outcome.logId}`);
    const message =
      outcome.status === 'stored'
        ? `No MailChannels key is configured: the test e-mail to ${testEmail} was stored in the outbox (e-mail log #${outcome.logId}), not sent`
        : `Test e-mail sent to ${testEmail} through MailChannels`;
    return c.json({ success: true, message }, 200);
  });
