import type * as z from 'zod/v4';
import type { chatHandoffSchema } from '#core/schemas/chat';
import { api, okJson } from '../../../lib/api';

/**
 * POST /api/chat/handoff (docs/product.md §4.2): the visitor's contact details and note; the server
 * adds the conversation from its own records. Resolves to the confirmation text; throws an
 * ApiError otherwise (400 with field messages, 404, 409 for a conversation already handed off, 429).
 */
export async function requestHandoff(input: z.output<typeof chatHandoffSchema>): Promise<string> {
  const { message } = await okJson(api.chat.handoff.$post({ json: input }));
  return message;
}
