// `npm run doctor` (scripts/doctor.ts): the go-live checklist of the back office (docs/product.md
// §6.10) for the operator, judged by the same code (core/go-live.ts evaluateGoLive) from the facts of
// a running site when it can sign in there (GET /api/admin/go-live), else from
// the local files: the wrangler config's vars with .dev.vars over them, as `wrangler dev` sees them.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { unstable_readConfig } from 'wrangler';
import { evaluateGoLive, goLiveSettingFacts, type GoLiveCheck, type GoLiveFacts, type GoLiveSettings } from '#core/go-live';
import { GO_LIVE_REQUIREMENTS } from '#core/go-live-requirements';
import { parseDevVars } from './local-state.ts';

/** This machine's address (the local run): the only place the doctor sends .dev.vars' password. */
export function isLocalUrl(url: string): boolean {
  const { hostname } = new URL(url);
  return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/** The wrangler config: wrangler.jsonc once the project has one, else wrangler.toml. */
export function wranglerConfigPath(root: string): string {
  const jsonc = join(root, 'wrangler.jsonc');
  return existsSync(jsonc) ? jsonc : join(root, 'wrangler.toml');
}

/** The settings of the local run: the config's vars, and .dev.vars (secrets and overrides) over them. */
export function localSettings(root: string, devVarsPath = join(root, '.dev.vars')): { settings: GoLiveSettings; devVars: Record<string, string> } {
  const { vars } = unstable_readConfig({ config: wranglerConfigPath(root) }, { hideWarnings: true });
  const devVars = existsSync(devVarsPath) ? parseDevVars(readFileSync(devVarsPath, 'utf8')) : {};
  const strings = Object.fromEntries(Object.entries(vars ?? {}).filter(([, v]) => typeof v === 'string')) as Record<string, string>;
  return { settings: { ...strings, ...devVars }, devVars };
}

/** The checklist from the files alone: what needs the running site is "could not check". */
export function checksFromFiles(settings: GoLiveSettings): GoLiveCheck[] {
  return evaluateGoLive(goLiveSettingFacts(settings));
}

export type Fetch = typeof fetch;

/** Signs in at `url` as an owner and reads its checklist; throws with the reason in words when it cannot. */
export async function checksFromSite(url: string, credentials: { username: string; password: string; code?: string }, fetchImpl: Fetch = fetch): Promise<GoLiveCheck[]> {
  const origin = new URL(url).origin;
  // A password goes over plain HTTP only to this machine (the worker refuses it elsewhere, too late).
  if (!origin.startsWith('https:') && !isLocalUrl(origin)) throw new Error(`${origin} is not https://: the doctor sends no password over plain HTTP`);
  const timeout = () => AbortSignal.timeout(15_000);
  let login: Response;
  try {
    login = await fetchImpl(`${origin}/api/admin/login`, {
      method: 'POST',
      headers: { origin, 'content-type': 'application/json' },
      body: JSON.stringify(credentials),
      signal: timeout(),
    });
  } catch (error) {
    throw new Error(`${origin} does not answer (${(error as Error).message}): is it running? (\`npm start\`)`);
  }
  if (login.status !== 200) {
    const body = (await login.json().catch(() => ({}))) as { message?: string };
    throw new Error(`could not sign in at ${origin} as ${credentials.username} (${login.status}${body.message ? `: ${body.message}` : ''})`);
  }
  // The session cookie is the first Set-Cookie (worker/routes/admin/session.ts).
  const cookie = login.headers.getSetCookie()[0]?.split(';')[0];
  const res = await fetchImpl(`${origin}/api/admin/go-live`, { headers: { cookie: cookie ?? '' }, signal: timeout() });
  if (res.status === 403) throw new Error(`${credentials.username} is not an owner at ${origin}: only owners see the checklist`);
  if (!res.ok) throw new Error(`${origin}/api/admin/go-live answered ${res.status}`);
  const facts = (await res.json()) as GoLiveFacts;
  // Sign out again: the doctor leaves no session behind.
  await fetchImpl(`${origin}/api/admin/logout`, { method: 'POST', headers: { origin, cookie: cookie ?? '' }, signal: timeout() }).catch(() => undefined);
  return evaluateGoLive(facts);
}

const MARK = { done: '[done]   ', missing: '[MISSING]', unknown: '[?]      ' } as const;

/** The checklist as the operator reads it: one block per requirement, what to do under each one not done. */
export function formatChecklist(checks: GoLiveCheck[], source: string): string {
  const lines = [`Go-live checklist (${source})`, ''];
  for (const check of checks) {
    const requirement = GO_LIVE_REQUIREMENTS.find((r) => r.id === check.id);
    if (!requirement) continue;
    lines.push(`${MARK[check.state]} ${requirement.title}: ${check.detail}`);
    if (check.state !== 'done') {
      const where = 'screen' in requirement.where ? `back office ${requirement.where.screen} (${requirement.where.label})` : `README, "${requirement.where.readme}"`;
      lines.push(`            To do: ${requirement.todo}`, `            Where: ${where}`);
    }
  }
  const count = (state: GoLiveCheck['state']) => checks.filter((c) => c.state === state).length;
  lines.push('', `${count('done')} done, ${count('missing')} missing, ${count('unknown')} could not be checked.`);
  return lines.join('\n');
}
