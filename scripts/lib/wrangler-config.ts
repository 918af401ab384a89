// The one place the scripts read wrangler.jsonc: through wrangler's own readers, so a script sees
// exactly what `wrangler deploy` sees (comments, trailing commas, environments and CLOUDFLARE_ENV
// included). The build (vite.config.ts) and the worker tests (vitest.config.ts) read it the same way.
import { fileURLToPath } from 'node:url';
import { experimental_readRawConfig, unstable_readConfig } from 'wrangler';

/** The Worker's configuration file. */
export const wranglerConfigPath = fileURLToPath(new URL('../../wrangler.jsonc', import.meta.url));

/** The resolved configuration of one environment (undefined: CLOUDFLARE_ENV's, else the top level). */
export function readWranglerConfig(env?: string, configPath = wranglerConfigPath) {
  return unstable_readConfig({ config: configPath, env }, { hideWarnings: true });
}

/** The file as written (every environment), for checks that must see what the operator wrote. */
export function readRawWranglerConfig(configPath = wranglerConfigPath) {
  return experimental_readRawConfig({ config: configPath }).rawConfig;
}
