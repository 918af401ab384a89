import { api } from './api';

// Loaded by ./turnstile.ts when a visitor starts filling a public form, never with a page.

export const TURNSTILE_SCRIPT_URL = 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit';

/** How long a submit waits for the widget's answer (an interactive challenge takes a person a while). */
const TOKEN_WAIT_MS = 30_000;

/** The part of Cloudflare's `window.turnstile` used here (explicit rendering). */
interface TurnstileApi {
  render(
    container: HTMLElement,
    options: {
      sitekey: string;
      appearance?: 'always' | 'execute' | 'interaction-only';
      size?: 'normal' | 'flexible' | 'compact';
      callback?: (token: string) => void;
      'expired-callback'?: () => void;
      'error-callback'?: () => void;
    },
  ): string | undefined;
  reset(widgetId: string): void;
}

declare global {
  interface Window {
    turnstile?: TurnstileApi;
  }
}

export interface TurnstileWidget {
  /** The current token, or the next one the widget produces (undefined after TOKEN_WAIT_MS). */
  token(): Promise<string | undefined>;
  reset(): void;
}

let siteKey: Promise<string | null> | null = null;
let script: Promise<TurnstileApi> | null = null;

function readSiteKey(): Promise<string | null> {
  siteKey ??= api['site-config']
    .$get()
    .then(async (res) => (res.ok ? (await res.json()).turnstileSiteKey : null))
    .catch(() => {
      siteKey = null;
      return null;
    });
  return siteKey;
}

function loadScript(): Promise<TurnstileApi> {
  script ??= new Promise<TurnstileApi>((resolve, reject) => {
    const element = document.createElement('script');
    element.src = TURNSTILE_SCRIPT_URL;
    element.async = true;
    element.onload = () => (window.turnstile ? resolve(window.turnstile) : reject(new Error('Turnstile did not start')));
    element.onerror = () => {
      script = null;
      element.remove();
      reject(new Error('Turnstile failed to load'));
    };
    document.head.appendChild(element);
  });
  return script;
}

/** Renders the widget into `container` when the site has a key; null when it has none. */
export async function mountTurnstile(container: HTMLElement): Promise<TurnstileWidget | null> {
  const key = await readSiteKey();
  if (!key) return null;
  const turnstile = await loadScript();
  let current: string | undefined;
  let waiting: ((token: string | undefined) => void)[] = [];
  const widgetId = turnstile.render(container, {
    sitekey: key,
    // Invisible unless Cloudflare asks the visitor something.
    appearance: 'interaction-only',
    size: 'flexible',
    callback(token) {
      current = token;
      for (const resolve of waiting) resolve(token);
      waiting = [];
    },
    // The widget fetches a fresh token by itself; until then there is none to send.
    'expired-callback': () => (current = undefined),
    'error-callback': () => (current = undefined),
  });
  return {
    token() {
      if (current) return Promise.resolve(current);
      return new Promise((resolve) => {
        waiting.push(resolve);
        setTimeout(() => resolve(undefined), TOKEN_WAIT_MS);
      });
    },
    reset() {
      current = undefined;
      if (widgetId !== undefined) turnstile.reset(widgetId);
    },
  };
}
