// Every Workers AI model the site runs, in one place. Each id must be a model that the installed
// @cloudflare/workers-types lists (`keyof AiModels`): `satisfies` makes `npm run typecheck` (and so
// `npm run check`) fail when an id is mistyped or dropped from the catalog, as
// `@cf/meta/llama-3.1-8b-instruct` was when Cloudflare retired it on 2026-05-30 (Workers AI
// changelog, "Planned model deprecations", 2026-05-08). No cast may widen these: `Ai.run` accepts
// any string as an unknown model, so only this check catches a dead id before production does.
// Changing a model: pick one from the catalog (developers.cloudflare.com/workers-ai/models/) that
// the installed types list, and keep its answer shape (`{ response }`) or adapt the caller.

/**
 * The online assistant (docs/decisions/0003-chat-assistant.md): Llama 3.3 70B, fp8 "fast" variant,
 * strong instruction following at chat latency. The "-fast" variants stayed active through the
 * 2026-05-30 retirements.
 */
export const CHAT_MODEL_ID = '@cf/meta/llama-3.3-70b-instruct-fp8-fast' satisfies keyof AiModels;

/**
 * The AI newsletter draft (worker/services/newsletter/ai-preview.ts): the same current model as the
 * chat, which follows the draft's strict SUBJECT/HTML format reliably and answers within the
 * preview's 25 s timeout for a draft of about 1,200 tokens.
 */
export const NEWSLETTER_MODEL_ID = '@cf/meta/llama-3.3-70b-instruct-fp8-fast' satisfies keyof AiModels;
