// Times the paths reads in process (no HTTP, no server) against an existing PostgreSQL
// database holding the paths data set (bench/paths.ts): migrates it first (a database
// seeded by an older build gets its stored paths, timed: the backfill), then GET
// /api/insights/paths' verb for 30 days of the newest trace's name and of every name, and
// the list with that name's top path and top fork, and GET /api/insights/paths/reviews'
// verb for both windows; sorted ms per call, and the answer's JSON size and encoding time.
//   npx tsx --conditions=react-server scripts/bench/paths-inprocess.ts postgresql://... [--runs 10]
// Used for the 1M-trace figures in docs/benchmarks.md ("Paths").
import { systemContext } from '@/lib/core/context';
import { parsePathParams, pathInsights, pathReviews } from '@/lib/features/paths';
import { migrate, readMigrations } from '@/lib/db/migrate';
import { openDatabase } from '@/lib/db/open';
import { listTraces } from '@/lib/features/traces';
import { parseListParams } from '@/lib/features/query';

const url = process.argv[2];
if (!url) throw new Error('usage: paths-inprocess.ts <postgresql:// URL> [--runs N]');
const runsAt = process.argv.indexOf('--runs');
const RUNS = runsAt > 0 ? Number(process.argv[runsAt + 1]) : 10;
const db = await openDatabase(url);
const ctx = systemContext(db, 'bench');
const t0 = performance.now();
const log = (msg: string) => console.log(`[${((performance.now() - t0) / 1000).toFixed(0).padStart(5)}s] ${msg}`);

const migrated = await migrate(db.sql, await readMigrations());
log(`migrations applied: ${migrated.applied.join(', ') || 'none'}`);
// A build that stores paths: store every marked trace's (what the migration's backfill leaves to housekeeping).
const [{ stores }] = await db.sql.query<{ stores: boolean }>(`SELECT to_regproc('paths_compact') IS NOT NULL AS stores`);
if (stores) {
  let stored = 0;
  const compacting = performance.now();
  for (let n = -1; n !== 0; stored += Math.max(0, n)) [{ n }] = await db.sql.query<{ n: number }>('SELECT "paths_compact"(20000) AS n');
  log(`stored the paths of ${stored} traces in ${((performance.now() - compacting) / 1000).toFixed(1)} s`);
  for (const table of ['TracePath', 'DecisionPath', 'TracePathDirty']) await db.sql.exec(`VACUUM (ANALYZE) "${table}"`);
}

const [{ end, name }] = await db.sql.query<{ end: Date; name: string }>(
  `SELECT "startedAt" + interval '1 millisecond' AS end, "name" FROM "Trace" ORDER BY "startedAt" DESC, "id" DESC LIMIT 1`,
);
const to = new Date(end).toISOString();
const from = new Date(Date.parse(to) - 30 * 86_400_000).toISOString();

/** Calls after a warm-up: RUNS, or fewer once BUDGET_MS has passed (the slow reads before paths were stored). */
const BUDGET_MS = 120_000;

async function time<T>(label: string, call: () => Promise<T>): Promise<T> {
  const began = performance.now();
  let out = await call(); // warm-up
  const ms: number[] = [];
  for (let i = 0; i < RUNS && (i === 0 || performance.now() - began < BUDGET_MS); i++) {
    const started = performance.now();
    out = await call();
    ms.push(performance.now() - started);
  }
  ms.sort((a, b) => a - b);
  const p95 = ms[Math.min(ms.length - 1, Math.ceil(0.95 * ms.length) - 1)];
  log(`${label.padEnd(34)} p50 ${ms[Math.floor(ms.length / 2)].toFixed(0)} p95 ${p95.toFixed(0)} ms  [${ms.map((x) => x.toFixed(0)).join(' ')}]`);
  return out;
}

for (const [label, query] of [
  ['paths 30d name=<newest trace>', { from, to, name }],
  ['paths 30d', { from, to }],
] as const) {
  const answer = await time(label, () => pathInsights(ctx, parsePathParams(new URLSearchParams(query))));
  const encoding = performance.now();
  const json = JSON.stringify(answer);
  log(`  ${answer.totals.traces} traces, ${answer.paths.length} paths, ${answer.forks.length} fork options; JSON ${(json.length / 1024).toFixed(0)} KB in ${(performance.now() - encoding).toFixed(0)} ms`);
  if (label.includes('name=')) {
    const top = answer.paths[0];
    const fork = answer.forks[0];
    if (top) await time('list path=<its top path>', () => listTraces(ctx, parseListParams(new URLSearchParams({ path: top.id }))));
    if (fork) await time('list fork=<its top fork>&chosen', () => listTraces(ctx, parseListParams(new URLSearchParams({ fork: fork.id, chosen: fork.label }))));
  }
}
for (const [label, query] of [
  ['paths/reviews 30d name=<newest trace>', { from, to, name }],
  ['paths/reviews 30d', { from, to }],
] as const) {
  const answer = await time(label, () => pathReviews(ctx, parsePathParams(new URLSearchParams(query))));
  log(`  ${answer.reviewedTraces} reviewed traces read (limited: ${answer.limited}), ${answer.branches.length} branches`);
}
await db.close();
