import { Hono, type MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env';
import { turnstile } from '../middleware/turnstile';
import { validate } from '../middleware/validate';
import { availabilityQuerySchema, BOOKING_MESSAGES, createAppointmentSchema } from '#core/schemas/appointments';
import { book, dayAvailability } from '../services/appointments';
import { networkHash } from '../middleware/client-network';
import { publishedContent } from '../services/content';

// Any one-line service name passes the schema; the route checks it against the published list.
const bookingRequestSchema = createAppointmentSchema(undefined, undefined, undefined, null);

/** A service the firm no longer (or never) published is refused like a missing one: 400 on the field. */
const publishedServiceType: MiddlewareHandler<AppEnv, '/', { out: { json: { serviceType: string } } }> = async (c, next) => {
  const { booking } = await publishedContent(c.env);
  if (!booking.serviceTypes.includes(c.req.valid('json').serviceType)) {
    return c.json({ message: BOOKING_MESSAGES.service, fields: { serviceType: [BOOKING_MESSAGES.service] } }, 400);
  }
  await next();
};

const bookingResponseMessage = "Thank you! Your appointment request has been received. We'll contact you shortly to confirm your appointment.";

/** The public booking API (docs/product.md §3). */
export const appointmentsApi = new Hono<AppEnv>()
  // The 7 slots of a day and whether each can still be booked (dayAvailability).
  .get('/availability', validate('query', availabilityQuerySchema), async (c) => c.json(await dayAvailability(c.var.db, c.req.valid('query').date), 200))
  // The schema reads the clock on each parse, so one validator judges every request by its own "now".
  // The service must be one the firm publishes (docs/decisions/0013-content-as-a-versioned-document.md).
  // Turnstile (when configured) after both, so a refused field does not spend the single-use token.
  .post('/', validate('json', bookingRequestSchema), publishedServiceType, turnstile(), async (c) => {
    const result = await book(c.env, c.req.valid('json'), await networkHash(c), c.executionCtx);
    if (!result.ok) return c.json({ message: result.message }, result.status, result.retryAfter === null ? {} : { 'Retry-After': String(result.retryAfter) });
    return c.json({ id: result.id, message: bookingResponseMessage, ...result.booking }, 201);
  });
