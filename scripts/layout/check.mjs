// The layout's rules (docs/architecture.md), checked on the import graph:
// - dependencies point inward: app, components -> transports, upkeep -> features -> core, db;
// - a feature is reached from outside its folder only through its index.ts (server
//   verbs) or shared.ts (types and pure helpers the browser may import too);
// - no import circle anywhere in lib/;
// - only lib/core reads process.env (in lib/, app/ and components/);
// - one way to write SQL in lib/: statements built with lib/db/sql's tag (no text and
//   parameter array, no Prisma.sql or $queryRaw; Prisma's client is for Better Auth).
// Tests may reach into the module they sit beside, so test files are exempt from the
// first two rules. `npm run lint` runs this; it exits 1 on any violation.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildGraph, findCycles, withoutComments } from './graph.mjs';

const isTest = (file) => /\.test\.tsx?$/.test(file) || file.startsWith('test/') || file.startsWith('e2e/');

/** The layer a file belongs to, and for features and transports which one. */
export function layerOf(file) {
  const m = /^lib\/(core|db|generated|features|transports|upkeep|client)(?:\/([^/]+))?/.exec(file);
  if (!m) {
    if (file.startsWith('app/') || file.startsWith('components/') || /^[^/]+\.ts$/.test(file)) return { layer: 'app' };
    return { layer: 'outside' };
  }
  const layer = m[1];
  if (layer === 'features' || layer === 'transports') return { layer, unit: m[2]?.replace(/\.tsx?$/, '') };
  return { layer };
}

// Which layers each layer may import (besides itself).
const ALLOWED = {
  core: new Set(['core', 'generated']),
  db: new Set(['core', 'generated']),
  generated: new Set(['generated']),
  features: new Set(['core', 'db', 'generated']),
  transports: new Set(['core', 'db', 'generated', 'features']),
  upkeep: new Set(['core', 'db', 'features']),
  client: new Set(['core', 'features']),
  app: new Set(['core', 'db', 'features', 'transports', 'upkeep', 'client', 'generated']),
  outside: new Set(['core', 'db', 'features', 'transports', 'upkeep', 'client', 'generated', 'app']),
};

const PUBLIC_FACES = new Set(['index.ts', 'shared.ts']);

export function checkLayout(root, dirs = ['lib', 'app', 'components', 'scripts', 'instrumentation.ts', 'proxy.ts']) {
  const graph = buildGraph(root, dirs);
  const problems = [];
  for (const [file, edges] of graph) {
    const from = layerOf(file);
    for (const { target, spec, typeOnly } of edges) {
      const to = layerOf(target);
      if (isTest(file)) continue;
      // Inward only. Core may name db's types (the context carries the database handle).
      const sameUnit = from.layer === to.layer && (from.unit === undefined || from.unit === to.unit);
      if (!sameUnit) {
        const allowed =
          ALLOWED[from.layer]?.has(to.layer) ||
          (from.layer === to.layer && from.layer === 'features') ||
          (from.layer === to.layer && from.layer === 'transports' && to.unit === 'http') ||
          (from.layer === 'core' && to.layer === 'db' && typeOnly) ||
          target === 'package.json';
        if (!allowed) problems.push(`${file}: imports ${spec} (${from.layer}${from.unit ? `/${from.unit}` : ''} may not depend on ${to.layer}${to.unit ? `/${to.unit}` : ''})`);
      }
      // A feature's files are private to it, but for its public faces.
      if (to.layer === 'features' && !(from.layer === 'features' && from.unit === to.unit)) {
        const inside = target.slice(`lib/features/${to.unit}/`.length);
        if (!PUBLIC_FACES.has(inside)) problems.push(`${file}: imports ${spec}, private to lib/features/${to.unit} (use its index.ts or shared.ts)`);
      }
    }
  }
  const libOnly = (f) => f.startsWith('lib/') && !isTest(f);
  for (const cycle of findCycles(graph, libOnly)) problems.push(`import circle: ${cycle.join(' -> ')}`);
  for (const file of graph.keys()) {
    if (isTest(file) || !/^(lib|app|components)\//.test(file)) continue;
    const code = withoutComments(readFileSync(path.join(root, file), 'utf8'));
    if (!file.startsWith('lib/core/') && /\bprocess\.env\b/.test(code)) problems.push(`${file}: reads process.env (only lib/core reads configuration)`);
    if (!file.startsWith('lib/') || file.startsWith('lib/generated/') || file === 'lib/db/executor.ts') continue;
    if (/\.(query|queryBytes)(<[^(]*>)?\(\s*['"`]/.test(code) || /\.(query|queryBytes)(<[^(]*>)?\([^()]*(\([^()]*\))?[^()]*,\s*\[/.test(code)) {
      problems.push(`${file}: SQL as text and parameters (build it with sql\`...\` from lib/db/sql)`);
    }
    if (/\bPrisma\.(sql|join|raw|empty)\b|\$queryRaw|\$executeRaw|\.prisma\.\w+\.\w+\(/.test(code)) {
      problems.push(`${file}: SQL through Prisma (build it with sql\`...\` from lib/db/sql)`);
    }
  }
  return problems;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  const problems = checkLayout(root);
  for (const p of problems) console.error(p);
  if (problems.length > 0) {
    console.error(`\nlayout check: ${problems.length} problem(s); the rules are in docs/architecture.md`);
    process.exit(1);
  }
  console.log('layout check: ok');
}
