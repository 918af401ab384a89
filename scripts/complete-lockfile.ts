// `npm run lock:complete`: restores lock entries for other platforms' optional binaries.
//
// The registry this project installs from does not serve every platform's prebuilt packages
// (e.g. @cloudflare/workerd-darwin-64); `npm install` then silently leaves them out of
// package-lock.json, and `npm ci` refuses the lock as out of sync. This adds an entry for each
// missing optional dependency with its exact version and the os/cpu it is for, so `npm ci` skips
// it on other platforms, exactly as a lock written on a full registry would. Run it after any
// `npm install` that changes the lock.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

type Entry = { version?: string; dev?: boolean; optional?: boolean; os?: string[]; cpu?: string[]; optionalDependencies?: Record<string, string> };

const lockPath = fileURLToPath(new URL('../package-lock.json', import.meta.url));
const lock = JSON.parse(readFileSync(lockPath, 'utf8')) as { packages: Record<string, Entry> };
const packages = lock.packages;

const OS = [['darwin', 'darwin'], ['win32', 'win32'], ['windows', 'win32'], ['android', 'android'], ['freebsd', 'freebsd'], ['openbsd', 'openbsd'], ['netbsd', 'netbsd'], ['sunos', 'sunos'], ['aix', 'aix'], ['linux', 'linux']];
const CPU = [['arm64', 'arm64'], ['aarch64', 'arm64'], ['x64', 'x64'], ['-64', 'x64'], ['ia32', 'ia32'], ['wasm32', 'wasm32'], ['riscv64', 'riscv64'], ['ppc64', 'ppc64'], ['s390x', 's390x'], ['loong64', 'loong64'], ['arm', 'arm']];

function platformOf(name: string): Pick<Entry, 'os' | 'cpu'> {
  const n = name.toLowerCase();
  const os = OS.find(([key]) => n.includes(key))?.[1];
  const cpu = CPU.find(([key]) => n.includes(key))?.[1];
  return { ...(os ? { os: [os] } : {}), ...(cpu ? { cpu: [cpu] } : {}) };
}

/** Node's lookup from a package's folder: its own node_modules, then each ancestor's. */
function resolve(parent: string, dep: string): string | undefined {
  let dir = parent;
  for (;;) {
    const candidate = `${dir ? `${dir}/` : ''}node_modules/${dep}`;
    if (packages[candidate]) return candidate;
    if (!dir) return undefined;
    const cut = dir.lastIndexOf('/node_modules/');
    dir = cut >= 0 ? dir.slice(0, cut) : '';
  }
}

const added: string[] = [];
for (const [parent, entry] of Object.entries(packages)) {
  for (const [dep, version] of Object.entries(entry.optionalDependencies ?? {})) {
    if (!/^\d+\.\d+\.\d+([-+][\w.+-]*)?$/.test(version)) continue;
    const found = resolve(parent, dep);
    if (found && packages[found].version === version) continue;
    const top = `node_modules/${dep}`;
    const target = packages[top] ? `${parent}/node_modules/${dep}` : top;
    if (packages[target]) continue;
    packages[target] = { version, optional: true, ...(entry.dev ? { dev: true } : {}), ...platformOf(dep) };
    added.push(`${target}@${version}`);
  }
}

lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : a > b ? 1 : 0)));
writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
console.log(added.length ? `added ${added.length} platform entries:\n  ${added.join('\n  ')}` : 'lock already complete');
