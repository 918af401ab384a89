// What `npm start` and `npm run dev` read before serving (scripts/lib/local-state.ts,
// scripts/lib/local-cron.ts), on .dev.vars files in a temporary directory.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { configuredCrons, localCronEnabled, localCronSeconds } from '../../scripts/lib/local-cron';
import { prepareDevVars } from '../../scripts/lib/local-state';

const dir = mkdtempSync(join(tmpdir(), 'cpa-local-state-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const devVars = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const ADMIN = 'ADMIN_USERNAME=admin\nADMIN_PASSWORD=quiet-lantern-harbor-42\nJWT_SECRET=0123456789abcdef0123456789abcdef\n';

describe('.dev.vars', () => {
  it('drops the SITE_URL that pinned e-mailed links to localhost:8787, so they follow PORT', () => {
    const path = devVars('old.dev.vars', `${ADMIN}MAILCHANNELS_API_KEY=\n# Not secrets: local overrides\nSITE_URL=http://localhost:8787\n`);
    const settings = prepareDevVars(path);
    expect(settings.siteUrl).toBeUndefined();
    expect(settings.mailChannels).toBe(false);
    expect(readFileSync(path, 'utf8')).toBe(`${ADMIN}MAILCHANNELS_API_KEY=\n# Not secrets: local overrides\n`);
  });

  it('keeps a SITE_URL set on purpose (a tunnel) and reports a MailChannels key', () => {
    const path = devVars('tunnel.dev.vars', `${ADMIN}MAILCHANNELS_API_KEY=mc-key\nSITE_URL=https://cpa-dev.trycloudflare.com\n`);
    expect(prepareDevVars(path)).toMatchObject({ username: 'admin', siteUrl: 'https://cpa-dev.trycloudflare.com', mailChannels: true });
    expect(readFileSync(path, 'utf8')).toContain('SITE_URL=https://cpa-dev.trycloudflare.com');
  });
});

describe('the local cron', () => {
  it('runs unless CRON=off', () => {
    expect(localCronEnabled({})).toBe(true);
    expect(localCronEnabled({ CRON: 'on' })).toBe(true);
    expect(localCronEnabled({ CRON: 'off' })).toBe(false);
    expect(localCronEnabled({ CRON: 'OFF' })).toBe(false);
  });

  it('ticks every minute unless LOCAL_CRON_SECONDS (1-60) says otherwise', () => {
    expect(localCronSeconds({})).toBe(60);
    expect(localCronSeconds({ LOCAL_CRON_SECONDS: ' 2 ' })).toBe(2);
    for (const bad of ['0', '61', '1.5', 'soon']) expect(() => localCronSeconds({ LOCAL_CRON_SECONDS: bad })).toThrow(/LOCAL_CRON_SECONDS must be a whole number/);
  });

  it("fires with wrangler.jsonc's trigger, which is every minute", () => {
    expect(configuredCrons()).toEqual(['* * * * *']);
    expect(configuredCrons({ triggers: { crons: ['0 * * * *', '*/5 * * * *'] } })).toEqual(['0 * * * *', '*/5 * * * *']);
  });
});
