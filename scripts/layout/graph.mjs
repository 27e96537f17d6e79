// The import graph of the repository's TypeScript: each file's static imports, dynamic
// import() and vi.mock() specifiers, resolved to repository paths. Regex-based on
// purpose: the layout check must stay fast and dependency-free, and these sources use
// only the plain forms this reads (`import ... from '...'`, `export ... from '...'`,
// `import('...')`, `import '...'`).
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const SOURCE = /\.(ts|tsx|mts)$/;
const SKIP_DIRS = new Set(['node_modules', '.next', 'generated', '.git', 'test-results', 'playwright-report', '.data', 'bench-results', 'packages', 'sdks']);

export function listSources(root, dirs) {
  const out = [];
  const walk = (dir) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir)) {
      if (SKIP_DIRS.has(entry) || entry.startsWith('.next')) continue;
      const full = path.join(dir, entry);
      if (statSync(full).isDirectory()) walk(full);
      else if (SOURCE.test(entry) && !entry.endsWith('.d.ts')) out.push(path.relative(root, full));
    }
  };
  for (const dir of dirs) {
    const full = path.join(root, dir);
    if (existsSync(full) && statSync(full).isFile()) out.push(dir);
    else walk(full);
  }
  return out.sort();
}

const SPECIFIER = /(?:^|[\s;])(?:import|export)\s+(type\s+)?(?:[^'"`;]*?\sfrom\s+)?['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)|\bvi\.mock\(\s*['"]([^'"]+)['"]/g;

/** The source without its block comments and whole-line comments. */
export function withoutComments(text) {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
}

/** The specifiers a source names, with whether the import is type-only (erased at build). */
export function importsOf(text) {
  const found = [];
  const code = withoutComments(text);
  for (const m of code.matchAll(SPECIFIER)) {
    const spec = m[2] ?? m[3] ?? m[4];
    found.push({ spec, typeOnly: Boolean(m[1]), index: m.index });
  }
  return found;
}

/** The repository file a specifier names, or undefined for a package. */
export function resolveSpec(root, from, spec) {
  let base;
  if (spec.startsWith('@/')) base = path.join(root, spec.slice(2));
  else if (spec.startsWith('.')) base = path.join(root, path.dirname(from), spec);
  else return undefined;
  const candidates = [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')];
  if (base.endsWith('.js')) candidates.unshift(base.replace(/\.js$/, '.ts'));
  for (const c of candidates) if (existsSync(c) && statSync(c).isFile()) return path.relative(root, c);
  return undefined;
}

export function buildGraph(root, dirs) {
  const files = listSources(root, dirs);
  const graph = new Map();
  for (const file of files) {
    const edges = [];
    for (const imp of importsOf(readFileSync(path.join(root, file), 'utf8'))) {
      const target = resolveSpec(root, file, imp.spec);
      if (target) edges.push({ ...imp, target });
    }
    graph.set(file, edges);
  }
  return graph;
}

/** Strongly connected components with more than one file (or a self-import): the circles. */
export function findCycles(graph, include = () => true) {
  let index = 0;
  const stack = [];
  const on = new Set();
  const idx = new Map();
  const low = new Map();
  const cycles = [];
  const visit = (v) => {
    idx.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    on.add(v);
    for (const e of graph.get(v) ?? []) {
      if (e.typeOnly || !include(e.target) || !graph.has(e.target)) continue;
      if (!idx.has(e.target)) {
        visit(e.target);
        low.set(v, Math.min(low.get(v), low.get(e.target)));
      } else if (on.has(e.target)) low.set(v, Math.min(low.get(v), idx.get(e.target)));
    }
    if (low.get(v) === idx.get(v)) {
      const comp = [];
      let w;
      do {
        w = stack.pop();
        on.delete(w);
        comp.push(w);
      } while (w !== v);
      const self = (graph.get(v) ?? []).some((e) => e.target === v && !e.typeOnly);
      if (comp.length > 1 || self) cycles.push(comp.sort());
    }
  };
  for (const v of graph.keys()) if (include(v) && !idx.has(v)) visit(v);
  return cycles;
}
