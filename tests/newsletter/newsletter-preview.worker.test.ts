import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import worker from '../../worker/index';
import { NEWSLETTER_MODEL_ID } from '../../worker/services/platform/ai-models';
import { fakeAi } from '../harness/worker/chat-helpers';
import { client, ORIGIN, signIn } from '../harness/worker/helpers';

// The AI newsletter preview (docs/product.md §5.6): a Workers AI draft when the model answers, and
// otherwise the static template with `aiUnavailable: true`, so the admin is told it is no AI draft.

type Preview = { subject: string; htmlContent: string; aiUnavailable: boolean };

async function previewWith(ai: Ai, cookie: string): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await worker.fetch(new Request(`${ORIGIN}/api/admin/newsletter/preview`, { headers: { cookie } }), { ...env, AI: ai }, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

const staticPreview = async (cookie: string) => (await (await client({ cookie }).api.admin.newsletter['preview-static'].$get()).json()) as { subject: string; htmlContent: string };

describe('the AI newsletter preview', () => {
  it('answers the static template flagged aiUnavailable when the AI binding fails', async () => {
    const cookie = await signIn();
    const { ai, calls } = fakeAi(() => {
      throw new Error('5007: No such model @cf/meta/llama-3.1-8b-instruct');
    });
    const res = await previewWith(ai, cookie);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Preview;
    const expected = await staticPreview(cookie);
    expect(body).toEqual({ subject: expected.subject, htmlContent: expected.htmlContent, aiUnavailable: true });
    expect(calls.map((c) => c.model)).toEqual([NEWSLETTER_MODEL_ID]);
  });

  it('flags the fallback when the model answers without the SUBJECT/HTML format', async () => {
    const cookie = await signIn();
    const { ai } = fakeAi(() => ({ response: 'Sorry, I cannot help with that.' }));
    const body = (await (await previewWith(ai, cookie)).json()) as Preview;
    expect(body.aiUnavailable).toBe(true);
    expect(body.subject).toBe((await staticPreview(cookie)).subject);
  });

  it("answers the model's draft, sanitized, with aiUnavailable false when the model answers", async () => {
    const cookie = await signIn();
    const { ai, calls } = fakeAi(() => ({
      response: 'SUBJECT: Your December tax checklist\nHTML:\n<h2>Year-end moves</h2><p>Max out retirement contributions before December 31.</p><script>alert(1)</script>',
    }));
    const body = (await (await previewWith(ai, cookie)).json()) as Preview;
    expect(body.aiUnavailable).toBe(false);
    expect(body.subject).toBe('Your December tax checklist');
    expect(body.htmlContent).toContain('<h2>Year-end moves</h2>');
    expect(body.htmlContent).not.toContain('<script');
    expect(calls).toHaveLength(1);
    expect(calls[0].model).toBe(NEWSLETTER_MODEL_ID);
    expect(calls[0].inputs.max_tokens).toBe(1200);
  });

  it('without any AI binding (local development) flags the static template too', async () => {
    const cookie = await signIn();
    const ctx = createExecutionContext();
    const res = await worker.fetch(new Request(`${ORIGIN}/api/admin/newsletter/preview`, { headers: { cookie } }), { ...env, AI: undefined }, ctx);
    await waitOnExecutionContext(ctx);
    expect(((await res.json()) as Preview).aiUnavailable).toBe(true);
  });
});
