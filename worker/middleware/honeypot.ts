import type { Context, Env, MiddlewareHandler } from 'hono';

export interface HoneypotOptions<E extends Env> {
  /** The JSON body field people never see (hidden from sight and from screen readers). */
  field: string;
  /** The answer a filled honeypot gets instead of the handler: the route's normal success. */
  onFilled: (c: Context<E>) => Response | Promise<Response>;
}

/**
 * A honeypot: a form field people never see, so a request that fills it is a bot's. It gets the
 * route's normal success answer and never reaches the handler, so nothing is stored, counted or
 * sent. Runs before validation: the bot's answer does not depend on the rest of its input either.
 * Reads the JSON body through Hono's body cache, so the validator after it reads it again.
 *
 * @example
 * contact.post('/', honeypot({ field: 'website', onFilled: (c) => c.json({ message: 'Thank you' }, 201) }), validate('json', contactSchema), handler)
 */
export function honeypot<E extends Env>({ field, onFilled }: HoneypotOptions<E>): MiddlewareHandler<E> {
  return async function honeypotMiddleware(c, next) {
    const body: unknown = await c.req.json().catch(() => null);
    const value = body && typeof body === 'object' ? (body as Record<string, unknown>)[field] : undefined;
    if (typeof value === 'string' && value.trim()) return onFilled(c);
    return next();
  };
}
