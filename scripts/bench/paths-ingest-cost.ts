// What the path mark triggers cost a write, in process on PostgreSQL (no HTTP): POST
// /api/traces' verb stores batches of the bench's full traces (10 decision points, 50
// spans, 10 events) with the triggers enabled and disabled, in alternating rounds, one
// client; then how long storing the marked traces' paths (paths_compact) takes per trace.
// For a machine whose heavy lock is taken: it is a test-sized run.
//   scripts/with-postgres.sh npx tsx --conditions=react-server scripts/bench/paths-ingest-cost.ts [--rounds 6 --batches 30 --batch 10]
import { systemContext } from '@/lib/context';
import { openDatabase } from '@/lib/storage/open';
import { migrate, readMigrations } from '@/lib/storage/migrate';
import { ingestTraces } from '@/lib/traces/ingest';
import { validateIngestBody } from '@/lib/traces/validate';
import { FULL_SHAPE, generateTrace } from './generate';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const ROUNDS = arg('rounds', 6);
const BATCHES = arg('batches', 30);
const BATCH = arg('batch', 10);
const url = process.env.PG_TEST_URL;
if (!url) throw new Error('PG_TEST_URL: run through scripts/with-postgres.sh');
// Time spent in each PL/pgSQL function, the triggers' among them (pg_stat_user_functions):
// what the marks cost, apart from the machine's load, which makes the rates below noisy.
{
  const setup = await openDatabase(url);
  await setup.sql.exec(`ALTER DATABASE "${new URL(url).pathname.slice(1)}" SET track_functions = 'pl'`);
  await setup.close();
}
const db = await openDatabase(url);
await migrate(db.sql, await readMigrations());
const ctx = systemContext(db, 'bench');
const limits = { maxBatchTraces: 1000, maxChildrenPerTrace: 10_000 };
// The mark triggers this build has ("Trace" has its own where the trace's figures are stored beside its path).
const TRIGGERS = (
  await db.sql.query<{ table: string; name: string }>(
    `SELECT c.relname AS table, t.tgname AS name FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
      WHERE c.relname IN ('DecisionPoint', 'Span', 'Trace') AND t.tgname ~ '_paths_(insert|update|delete)$'`,
  )
).map((t) => [t.table, t.name] as const);

let index = 0;
const batch = () => validateIngestBody({ traces: Array.from({ length: BATCH }, () => generateTrace({ seed: 27, index: index++, shape: FULL_SHAPE })) }, limits);
// Warm-up: caches, plans.
for (let i = 0; i < 5; i++) await ingestTraces(ctx, batch());

const results: Record<'marks' | 'none', number[]> = { marks: [], none: [] };
const batchMs: number[] = [];
await db.sql.query('SELECT pg_stat_reset()');
for (let round = 0; round < ROUNDS; round++) {
  const mode = round % 2 === 0 ? 'marks' : 'none';
  for (const [table, trigger] of TRIGGERS) await db.sql.exec(`ALTER TABLE "${table}" ${mode === 'marks' ? 'ENABLE' : 'DISABLE'} TRIGGER "${trigger}"`);
  const batches = Array.from({ length: BATCHES }, batch);
  const started = performance.now();
  for (const b of batches) {
    const one = performance.now();
    await ingestTraces(ctx, b);
    if (mode === 'marks') batchMs.push(performance.now() - one);
  }
  const ms = performance.now() - started;
  results[mode].push((BATCHES * BATCH) / (ms / 1000));
  console.log(`round ${round} ${mode.padEnd(5)} ${((BATCHES * BATCH) / (ms / 1000)).toFixed(0)} traces/s (${(ms / BATCHES).toFixed(1)} ms per batch of ${BATCH})`);
}
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
console.log(`with marks ${mean(results.marks).toFixed(0)} traces/s, without ${mean(results.none).toFixed(0)}: ${((mean(results.marks) / mean(results.none) - 1) * 100).toFixed(1)}%`);
await new Promise((r) => setTimeout(r, 1000)); // statistics are sent at transaction end, with a short delay
const functions = await db.sql.query<{ funcname: string; calls: number; total: number }>(
  `SELECT funcname, calls::int, total_time AS total FROM pg_stat_user_functions WHERE funcname LIKE 'paths_mark%' ORDER BY funcname`,
);
const marked = batchMs.length;
const markMs = functions.reduce((n, f) => n + f.total, 0);
batchMs.sort((a, b) => a - b);
for (const f of functions) console.log(`  ${f.funcname}: ${f.calls} calls, ${f.total.toFixed(1)} ms`);
console.log(
  `mark triggers: ${(markMs / marked).toFixed(2)} ms per batch of ${BATCH} (${marked} batches with marks); ` +
    `a batch takes ${batchMs[Math.floor(marked / 2)].toFixed(1)} ms (median), ${batchMs[0].toFixed(1)} at best: ` +
    `${((100 * markMs) / marked / batchMs[Math.floor(marked / 2)]).toFixed(1)}% of the median, ${((100 * markMs) / marked / batchMs[0]).toFixed(1)}% of the best`,
);

const [{ distinct }] = await db.sql.query<{ distinct: number }>('SELECT count(DISTINCT "traceId")::int AS distinct FROM "TracePathDirty"');
const started = performance.now();
let stored = 0;
for (let n = -1; n !== 0; stored += Math.max(0, n)) [{ n }] = await db.sql.query<{ n: number }>('SELECT "paths_compact"(5000) AS n');
const ms = performance.now() - started;
console.log(`paths_compact: ${stored} marked traces (${distinct} distinct) stored in ${ms.toFixed(0)} ms: ${((ms * 1000) / Math.max(1, stored)).toFixed(0)} µs per trace`);
await db.close();
