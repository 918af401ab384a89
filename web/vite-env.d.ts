/// <reference types="vite/client" />

// Constants vite.config.ts defines for the web code at build time.
interface ImportMetaEnv {
  /** The site's public origin without a trailing slash: SITE_URL in wrangler.jsonc "vars". */
  readonly VITE_SITE_URL: string;
  /** The year of the build, for the footer's copyright line until the browser's clock takes over. */
  readonly VITE_BUILD_YEAR: string;
  /** '1' when the build knew a Turnstile site key (and its CSP allows Cloudflare's script), else ''. */
  readonly VITE_TURNSTILE: string;
}
