import type { InferRequestType } from 'hono/client';
// Type-only: the typed client (web/lib/api.ts) loads with the first message.
import type { api } from '../../../lib/api';

/** What POST /api/contact accepts: the contact schema's input (core/schemas/contact.ts). */
export type ContactRequest = InferRequestType<typeof api.contact.$post>['json'];

/**
 * POST /api/contact (docs/product.md §11: the answer's body is not used); a non-OK answer is an
 * ApiError. The typed client loads with the first message, so the page paints without it.
 */
export async function sendContactMessage(message: ContactRequest): Promise<void> {
  const { api, okJson } = await import('../../../lib/api');
  await okJson(api.contact.$post({ json: message }));
}

/** The text to show for a failed send (the server's message when it has one). */
export async function contactErrorText(error: unknown): Promise<string> {
  const fallback = 'Failed to send message. Please try again.';
  try {
    const { errorMessage } = await import('../../../lib/api');
    return errorMessage(error, fallback);
  } catch {
    return fallback;
  }
}
