// `npm run doctor` (scripts/doctor.ts, scripts/lib/doctor.ts): the go-live checklist for the operator,
// from the local files and from a running site's GET /api/admin/go-live (played here by a local
// HTTP server on 127.0.0.1: nothing leaves the machine).
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluateGoLive, GO_LIVE_IDS, type GoLiveFacts } from '#core/go-live';
import { checksFromFiles, checksFromSite, formatChecklist, isLocalUrl, localSettings } from '../../scripts/lib/doctor';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'cpa-doctor-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function project(name: string, files: Record<string, string>): string {
  const path = join(dir, name);
  rmSync(path, { recursive: true, force: true });
  mkdirSync(path, { recursive: true });
  for (const [file, text] of Object.entries(files)) writeFileSync(join(path, file), text);
  return path;
}

const TOML = `name = "firm"\nmain = "worker/index.ts"\ncompatibility_date = "2026-11-01"\n[vars]\nSITE_URL = "https://www.harbourcpa.com"\nMAIL_FROM = "no-reply@harbourcpa.com"\nMAILCHANNELS_ACCOUNT_ID = "acct-9"\nTURNSTILE_SITE_KEY = "0x4AAAAAAAabcdefgh"\n`;

describe('the checklist from the local files', () => {
  it('reads the wrangler config vars with .dev.vars over them, and never prints a secret', () => {
    const path = project('toml', {
      'wrangler.toml': TOML,
      '.dev.vars': 'JWT_SECRET=generated-by-npm-start\nADMIN_PASSWORD=quiet-lantern-harbor-42\nMAILCHANNELS_API_KEY=mc-secret-key\nTURNSTILE_SECRET=\n',
    });
    const checks = checksFromFiles(localSettings(path).settings);
    expect(checks.map((c) => c.id)).toEqual([...GO_LIVE_IDS]);
    const byId = Object.fromEntries(checks.map((c) => [c.id, c]));
    expect(byId['jwt-secret']).toEqual({ id: 'jwt-secret', state: 'missing', detail: 'Still the placeholder of .dev.vars.example' });
    expect(byId['site-url'].state).toBe('done');
    expect(byId['mail-from'].state).toBe('done');
    expect(byId['mailchannels-api-key'].state).toBe('done');
    expect(byId['mailchannels-account-id'].state).toBe('done');
    expect(byId.turnstile).toMatchObject({ state: 'missing', detail: 'Not set: TURNSTILE_SECRET' });
    expect(byId['dns-dkim']).toMatchObject({ state: 'missing', detail: 'DKIM_DOMAIN and DKIM_SELECTOR are not set' });
    for (const id of ['https', 'dns-spf', 'dns-lockdown', 'dns-dmarc', 'delivery-events', 'two-factor']) expect(byId[id].state).toBe('unknown');
    const printed = formatChecklist(checks, 'from the local files');
    expect(printed).toContain('[MISSING] Session signing secret (JWT_SECRET): Still the placeholder of .dev.vars.example');
    expect(printed).toContain('To do: Set TURNSTILE_SITE_KEY in the wrangler config vars and the TURNSTILE_SECRET secret');
    expect(printed).toMatch(/4 done, 4 missing, 6 could not be checked\.$/);
    expect(printed).not.toContain('mc-secret-key');
  });

  it('prefers wrangler.jsonc when the project has one, and holds the repository’s own placeholders missing', () => {
    const path = project('jsonc', {
      'wrangler.toml': TOML,
      'wrangler.jsonc': '// the firm\n{ "name": "firm", "main": "worker/index.ts", "compatibility_date": "2026-11-01", "vars": { "SITE_URL": "https://www.northgatecpa.example", "MAIL_FROM": "no-reply@northgatecpa.example" } }\n',
    });
    const byId = Object.fromEntries(checksFromFiles(localSettings(path).settings).map((c) => [c.id, c]));
    expect(byId['site-url']).toMatchObject({ state: 'missing', detail: 'SITE_URL is https://www.northgatecpa.example, a placeholder address' });
    expect(byId['mail-from'].state).toBe('missing');
    expect(byId['jwt-secret']).toMatchObject({ state: 'missing', detail: 'Not set' });
  });
});

/** A running site's admin API as the worker answers it: sign-in, the checklist, sign-out. */
const KEY = 'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA0123456789';
const LIVE: GoLiveFacts = {
  jwtSecret: 'usable',
  secretsSet: { MAILCHANNELS_API_KEY: true, DKIM_PRIVATE_KEY: true, TURNSTILE_SECRET: true },
  values: { SITE_URL: 'https://www.harbourcpa.com', MAIL_FROM: 'no-reply@harbourcpa.com', MAILCHANNELS_ACCOUNT_ID: 'acct-9', TURNSTILE_SITE_KEY: '0x4AAAAAAAabcdefgh', DKIM_DOMAIN: 'harbourcpa.com', DKIM_SELECTOR: 'mc' },
  checkedAt: '2026-01-01T00:00:00.000Z',
  origin: 'https://www.harbourcpa.com',
  dns: {
    'harbourcpa.com': ['v=spf1 include:relay.mailchannels.net ~all'],
    'mc._domainkey.harbourcpa.com': [`v=DKIM1;p=${KEY}`],
    '_mailchannels.harbourcpa.com': ['v=mc1 auth=acct-9'],
    '_dmarc.harbourcpa.com': [],
  },
  deliveryEvents: { enrolled: true, endpoint: 'https://www.harbourcpa.com/api/webhooks/mailchannels' },
  twoFactor: { required: true, owners: 1, ownersWithTwoFactor: 1 },
};
let server: Server;
let site: string;
const seen: string[] = [];
beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      seen.push(`${req.method} ${req.url} origin=${req.headers.origin ?? ''} cookie=${req.headers.cookie ?? ''}`);
      if (req.url === '/api/admin/login') {
        const { username, password } = JSON.parse(body) as { username: string; password: string };
        if (password !== 'right-password-123') return res.writeHead(401, { 'content-type': 'application/json' }).end('{"message":"Invalid credentials"}');
        return res.writeHead(200, { 'set-cookie': `admin_session=s-${username}; HttpOnly; Path=/`, 'content-type': 'application/json' }).end('{}');
      }
      if (req.url === '/api/admin/go-live') {
        if (req.headers.cookie === 'admin_session=s-staff') return res.writeHead(403).end('{}');
        return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(LIVE));
      }
      res.writeHead(req.url === '/api/admin/logout' ? 200 : 404).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  site = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('the checklist from a running site', () => {
  it('signs in as the owner, reads GET /api/admin/go-live, and signs out again', async () => {
    seen.length = 0;
    expect(await checksFromSite(site, { username: 'owner', password: 'right-password-123' })).toEqual(evaluateGoLive(LIVE));
    expect(seen).toEqual([
      `POST /api/admin/login origin=${site} cookie=`,
      `GET /api/admin/go-live origin= cookie=admin_session=s-owner`,
      `POST /api/admin/logout origin=${site} cookie=admin_session=s-owner`,
    ]);
  });

  it('says why when it cannot: a wrong password, a staff account, nothing running', async () => {
    await expect(checksFromSite(site, { username: 'owner', password: 'wrong-password-123' })).rejects.toThrow(`could not sign in at ${site} as owner (401: Invalid credentials)`);
    await expect(checksFromSite(site, { username: 'staff', password: 'right-password-123' })).rejects.toThrow('staff is not an owner');
    await expect(checksFromSite('http://127.0.0.1:9', { username: 'owner', password: 'right-password-123' })).rejects.toThrow(/does not answer .*is it running\?/);
  });

  it('sends .dev.vars’ password only to this machine, and no password over plain HTTP elsewhere', async () => {
    await expect(checksFromSite('http://www.harbourcpa.com', { username: 'owner', password: 'right-password-123' })).rejects.toThrow('the doctor sends no password over plain HTTP');
    expect(['http://localhost:8787', 'http://127.0.0.1:9000', 'http://[::1]:8787'].every(isLocalUrl)).toBe(true);
    expect(['https://www.harbourcpa.com', 'http://localhost.evil.com'].some(isLocalUrl)).toBe(false);
  });

  it('`npm run doctor <URL>` prints the live list, and --strict exits 1 while something is missing', async () => {
    // Not spawnSync: the server answering the doctor runs in this process's event loop.
    const run = (args: string[]) =>
      new Promise<{ status: number | null; stdout: string }>((resolve) => {
        const child = spawn(process.execPath, ['scripts/doctor.ts', ...args], { cwd: root, env: { ...process.env, DOCTOR_USERNAME: 'owner', DOCTOR_PASSWORD: 'right-password-123' } });
        let stdout = '';
        child.stdout.on('data', (chunk) => (stdout += chunk));
        child.on('close', (status) => resolve({ status, stdout }));
      });
    const plain = await run([site]);
    expect(plain.status).toBe(0);
    expect(plain.stdout).toContain(`Go-live checklist (read live from ${site})`);
    expect(plain.stdout).toContain('[MISSING] DMARC record: No such TXT record at _dmarc.harbourcpa.com');
    expect(plain.stdout).toContain('13 done, 1 missing, 0 could not be checked.');
    expect((await run([site, '--strict'])).status).toBe(1);
  });
});
