// The directions of the source tree's imports (docs/architecture.md): core/ (the shared kernel)
// imports nothing of the project outside it; worker/ and web/ import core/ but never each other, but
// for the SPA's type-only import of the API's AppType in web/lib/api.ts (the typed client); nothing
// imports core/ by a relative path (always "#core/...", package.json "imports"); and no module
// imports itself back through others (no cycle, type-only imports included). It reads the import
// and export-from statements as text, so it needs no build.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The one import across worker/ and web/: the typed client's AppType, as a type (docs/decisions/0008-typed-api-contract.md). */
const allowedAcross = ['web/lib/api.ts -> worker/index.ts'];

interface Edge {
  from: string;
  to: string;
  specifier: string;
  typeOnly: boolean;
}

function sourceFiles(dir: string): string[] {
  const full = join(root, dir);
  if (!existsSync(full)) return [];
  return readdirSync(full, { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.tsx?$/.test(name) && !name.endsWith('.d.ts') && !name.split(/[\\/]/).includes('node_modules'))
    .map((name) => join(dir, name).replace(/\\/g, '/'));
}

/**
 * package.json "imports" such as "#core/*": "./core/*.ts", as [prefix, is a pattern, target before *,
 * target after *]. A conditional target (the worker's page renderer, a build output) is read as its
 * "types" file, what the source is checked against.
 */
const aliases = Object.entries(
  (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { imports?: Record<string, string | { types?: string; default?: string }> }).imports ?? {},
).map(([key, target]) => {
  const path = typeof target === 'string' ? target : (target.types ?? target.default ?? '');
  return [key.replace(/\*$/, ''), key.endsWith('*'), ...path.replace(/^\.\//, '').split('*')] as const;
});

/** The project file a specifier names (repo-relative), null for a package, undefined when nothing matches. */
function resolveSpecifier(from: string, specifier: string): string | null | undefined {
  let base: string;
  if (specifier.startsWith('#')) {
    const alias = aliases.find(([prefix, pattern]) => (pattern ? specifier.startsWith(prefix) : specifier === prefix));
    if (!alias) return undefined;
    const [prefix, , before, after = ''] = alias;
    base = before + specifier.slice(prefix.length) + after;
  } else if (specifier.startsWith('.')) {
    base = relative(root, resolve(root, dirname(from), specifier)).replace(/\\/g, '/');
  } else {
    return null;
  }
  const candidates = [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`];
  return candidates.find((candidate) => existsSync(join(root, candidate)) && statSync(join(root, candidate)).isFile());
}

/** Statements at the start of a line (import/export ... from, side-effect imports) and dynamic import() calls. */
const importPattern = /^(?:import|export)(\s+type)?\b[^;]*?\bfrom\s*['"]([^'"]+)['"]|^import\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/gm;

function importsOf(file: string): { edges: Edge[]; unresolved: string[] } {
  const text = readFileSync(join(root, file), 'utf8');
  const edges: Edge[] = [];
  const unresolved: string[] = [];
  for (const match of text.matchAll(importPattern)) {
    const specifier = match[2] ?? match[3] ?? match[4];
    const to = resolveSpecifier(file, specifier);
    if (to === undefined) unresolved.push(`${file}: ${specifier}`);
    else if (to !== null) edges.push({ from: file, to, specifier, typeOnly: Boolean(match[1]) });
  }
  return { edges, unresolved };
}

const layer = (file: string) => file.split('/')[0];
const show = (edge: Edge) => `${edge.from} -> ${edge.to}`;

/** Strongly connected components of more than one module (or a module importing itself): the cycles. */
function cycles(edges: Edge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const edge of edges) next.set(edge.from, [...(next.get(edge.from) ?? []), edge.to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    for (const to of next.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (stack.includes(to)) {
        low.set(node, Math.min(low.get(node)!, index.get(to)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component = stack.splice(stack.indexOf(node));
    if (component.length > 1 || next.get(node)?.includes(node)) found.push(component.sort());
  };
  for (const node of next.keys()) if (!index.has(node)) visit(node);
  return found;
}

const layered = ['core', 'worker', 'web'].flatMap(sourceFiles).map(importsOf);
const graph = layered.flatMap((file) => file.edges);

describe('import boundaries', () => {
  it('reads a graph: every relative and #alias import names a file of the project', () => {
    expect(graph.length).toBeGreaterThan(300);
    expect(layered.flatMap((file) => file.unresolved)).toEqual([]);
  });

  it('core/ imports nothing of the project outside core/', () => {
    expect(graph.filter((edge) => layer(edge.from) === 'core' && layer(edge.to) !== 'core').map(show)).toEqual([]);
  });

  it('worker/ imports only worker/ and core/', () => {
    expect(graph.filter((edge) => layer(edge.from) === 'worker' && !['worker', 'core'].includes(layer(edge.to))).map(show)).toEqual([]);
  });

  it('web/ imports only web/ and core/, but for the type-only AppType of the typed client', () => {
    const outside = graph.filter((edge) => layer(edge.from) === 'web' && !['web', 'core'].includes(layer(edge.to)));
    expect(outside.filter((edge) => !(allowedAcross.includes(show(edge)) && edge.typeOnly)).map(show)).toEqual([]);
  });

  it('everything outside core/ imports it through #core/, never by a relative path', () => {
    const all = ['core', 'worker', 'web', 'scripts', 'tests', 'bench'].flatMap(sourceFiles).flatMap((file) => importsOf(file).edges);
    const relativeIntoCore = all.filter((edge) => layer(edge.from) !== 'core' && layer(edge.to) === 'core' && !edge.specifier.startsWith('#core/'));
    expect(relativeIntoCore.map((edge) => `${edge.from}: ${edge.specifier}`)).toEqual([]);
  });

  it('has no import cycle', () => {
    expect(cycles(graph)).toEqual([]);
  });
});
