import { useRef, type RefObject } from 'react';
import type { TurnstileWidget } from './turnstile-widget';

/**
 * Cloudflare Turnstile on the public forms (docs/product.md §8, "Bot check";
 * checked by worker/middleware/turnstile.ts). This hook is all the forms carry: nothing loads until
 * the visitor first focuses or types in the form, so the pages stay as fast as without it. Then
 * ./turnstile-widget.ts reads the site key from GET /api/site-config, loads Cloudflare's script and
 * renders the widget (invisible unless Cloudflare wants an interaction).
 *
 * Only when the build knew a site key (VITE_TURNSTILE, vite.config.ts): that build's CSP, in the
 * static pages' _headers, is the one that allows challenges.cloudflare.com. Without it nothing is
 * requested and the forms send no token.
 *
 * @example
 * const turnstile = useTurnstile();
 * <form onFocus={turnstile.start} onInput={turnstile.start}>… <div ref={turnstile.ref} /> …</form>
 * await send({ ...data, ...(await turnstile.tokenField()) }); turnstile.reset();
 */
export interface Turnstile {
  /** Where the widget goes, inside the form. */
  ref: RefObject<HTMLDivElement | null>;
  /** The form's first focus or input: load and render, once. */
  start: () => void;
  /** `{ turnstileToken }` to spread into the request, `{}` when Turnstile is off; waits for the widget's answer. */
  tokenField: () => Promise<{ turnstileToken?: string }>;
  /** After a submit: the token was spent (each is single-use), the widget fetches a fresh one. */
  reset: () => void;
}

export function useTurnstile(): Turnstile {
  const ref = useRef<HTMLDivElement | null>(null);
  const widget = useRef<Promise<TurnstileWidget | null> | null>(null);
  const handle = useRef<Turnstile | null>(null);
  handle.current ??= {
    ref,
    start() {
      // Read in place (not through a helper) so a build without a key drops the rest as dead code.
      if (!import.meta.env.VITE_TURNSTILE || widget.current || !ref.current) return;
      const container = ref.current;
      widget.current = import('./turnstile-widget')
        .then(({ mountTurnstile }) => mountTurnstile(container))
        .catch((error: unknown) => {
          // Blocked or offline: the form still sends, and the server answers with its own message.
          console.warn('Turnstile could not load:', error);
          return null;
        });
    },
    async tokenField() {
      if (!import.meta.env.VITE_TURNSTILE) return {};
      handle.current!.start();
      const token = await (await widget.current)?.token();
      return token ? { turnstileToken: token } : {};
    },
    reset() {
      void widget.current?.then((mounted) => mounted?.reset());
    },
  };
  return handle.current;
}
