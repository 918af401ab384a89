import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { recordDeliveryEvents } from '../services/email/record-delivery-events';

/**
 * Calls from other services, authenticated by their own signatures instead of a session (and so
 * exempt from the same-origin check in worker/index.ts).
 */
export const webhooks = new Hono<AppEnv>().post('/mailchannels', async (c) => {
  const recorded = await recordDeliveryEvents(c.env, c.req.raw);
  if (recorded.ok) return c.json(recorded.result, 200);
  switch (recorded.reason) {
    case 'off':
      return c.json({ message: 'Not found' }, 404);
    case 'no-account-id':
      return c.json({ message: 'Delivery events are not configured on this site yet; try again later' }, 503);
    case 'bad-signature':
      return c.json({ message: recorded.message }, 401);
    case 'key-unavailable':
      return c.json({ message: 'The signing key is unavailable; try again later' }, 503);
    case 'bad-body':
      return c.json({ message: recorded.message }, 400);
  }
});
