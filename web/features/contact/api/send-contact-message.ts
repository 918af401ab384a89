import type { ContactInput } from '../../../../worker/schemas/contact';

/**
 * POST /api/contact (docs/product.md §11: the answer's body is not used). The request helpers load
 * with the first message (their module also holds the React Query client, which this page does not
 * need).
 */
export async function sendContactMessage(message: ContactInput): Promise<void> {
  const { apiRequest } = await import('../../../lib/query-client');
  await apiRequest('POST', '/api/contact', message);
}

/** The text to show for a failed send (the server's message when it has one). */
export async function contactErrorText(error: unknown): Promise<string> {
  const fallback = 'Failed to send message. Please try again.';
  try {
    const { errorMessage } = await import('../../../lib/query-client');
    return errorMessage(error, fallback);
  } catch {
    return fallback;
  }
}
