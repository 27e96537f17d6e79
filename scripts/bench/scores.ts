// Scores bench, in process (the route handlers and verbs, no HTTP server) on a fresh
// PostgreSQL database: seeds TRACES traces over 30 days with one decision point each and
// SCORES_PER_TRACE scores per trace (1M over 100k by default), then
// 1. POST /api/scores, 100 scores per request, CLIENTS concurrent clients for SECONDS:
//    scores per second and request latency percentiles;
// 2. the score figures of GET /api/insights/decisions (lib/features/insights/reviews.ts) over the
//    30 days, unfiltered and with status=ERROR: p50/p95 of RUNS calls, and the whole route.
// 3. the review queue's next item and progress, with every decision reviewed (the seed's),
//    then with 1% of them unreviewed again (their decision.correct scores deleted).
//   scripts/with-postgres.sh npx tsx --conditions=react-server scripts/bench/scores.ts
// PARTS=post,insights,queue picks the parts (default all); each figure is printed with the
// machine's load average (the machine is shared). SEED_DB=<name> keeps the seeded data set
// in that database and runs on a copy of it (CREATE DATABASE ... TEMPLATE), so that runs
// after the first skip the seed and start from the same rows.
// Results: docs/benchmarks.md ("Scores").
import { getConfig } from '@/lib/core/config';
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import pg from 'pg';
import { GET as decisionsRoute } from '@/app/api/insights/decisions/route';
import { POST as scoresRoute } from '@/app/api/scores/route';
import { systemContext } from '@/lib/core/context';
import { useDatabase as installDatabase } from '@/lib/db';
import { reviewFigures } from '@/lib/features/insights';
import { compactPathsOnce } from '@/lib/features/paths';
import { migrate, readMigrations } from '@/lib/db/migrate';
import { openDatabase } from '@/lib/db/open';
import { indexSearchBacklog } from '@/lib/features/search';

const TRACES = Number(process.env.TRACES ?? 100_000);
const SCORES_PER_TRACE = Number(process.env.SCORES_PER_TRACE ?? 10);
const CLIENTS = Number(process.env.CLIENTS ?? 4);
const SECONDS = Number(process.env.SECONDS ?? 15);
const RUNS = Number(process.env.RUNS ?? 20);
const PARTS = new Set((process.env.PARTS ?? 'post,insights,queue').split(','));
const BATCH = 100;
const SEED_CHUNK = 5_000;
const DAY = 86_400_000;

const adminUrl = process.env.PG_TEST_ADMIN_URL;
if (!adminUrl) throw new Error('run through scripts/with-postgres.sh (PG_TEST_ADMIN_URL)');
const SEED_DB = process.env.SEED_DB;
if (SEED_DB !== undefined && !/^[a-z_][a-z0-9_]*$/.test(SEED_DB)) throw new Error('SEED_DB must be a plain lower-case identifier');
const dbName = `bench_scores_${Date.now()}`;
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
const seeded = SEED_DB !== undefined && (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [SEED_DB])).rowCount === 1;
await admin.query(seeded ? `CREATE DATABASE ${dbName} TEMPLATE ${SEED_DB}` : `CREATE DATABASE ${dbName}`);
await admin.end();
const url = new URL(adminUrl);
url.pathname = `/${dbName}`;
process.env.DATABASE_URL = url.toString();
process.env.API_KEYS = 'bench-scores-key';
let db = await openDatabase(url.toString());
await migrate(db.sql, await readMigrations());
installDatabase(db);

const load = () => `load ${loadavg()[0].toFixed(1)}`;
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const end = Date.UTC(2026, 2, 31);
const start = end - 30 * DAY;

// ---- seed ----
let t0 = performance.now();
if (!seeded) await seed();
async function seed() {
  await db.sql.exec(`
INSERT INTO "Trace" ("id", "name", "status", "tags", "startedAt", "decisionPointCount")
SELECT 'bt-' || i, 'agent-' || (i % 20), (CASE WHEN i % 10 = 0 THEN 'ERROR' ELSE 'COMPLETED' END)::"RunStatus", '{}',
       to_timestamp(${start / 1000} + (i::float8 / ${TRACES}) * ${30 * 86_400}), 1
  FROM generate_series(1, ${TRACES}) i;
INSERT INTO "DecisionPoint" ("traceId", "id", "type", "chosen", "alternatives", "timestamp")
SELECT 'bt-' || i, 'd1', 'TOOL_SELECTION', to_jsonb((ARRAY['search','sql','web'])[1 + i % 3]), '["search","sql","web"]'::jsonb,
       to_timestamp(${start / 1000} + (i::float8 / ${TRACES}) * ${30 * 86_400})
  FROM generate_series(1, ${TRACES}) i;
`);
  // The decision points came after their traces, which no writer does (the rollup triggers
  // count a trace's children when its row is written): the rollups recounted from the rows.
  await db.sql.exec('SELECT "insights_rebuild"()');
  // The scores in chunks of SEED_CHUNK traces, as writers send them: the Score triggers
  // (review markers, score rollups) see one chunk per statement.
  for (let first = 1; first <= TRACES; first += SEED_CHUNK) {
    await db.sql.exec(`
INSERT INTO "Score" ("id", "traceId", "decisionPointId", "name", "dataType", "value", "stringValue", "source", "authorKind", "authorName", "createdAt")
SELECT 'bs-' || i || '-' || k, 'bt-' || i,
       CASE WHEN k IN (0, 1) THEN 'd1' END,
       (ARRAY['decision.correct','decision.better_option','quality','helpful','tone','relevance','latency_ok','grounded','style','user_feedback'])[1 + k],
       (ARRAY['BOOLEAN','CATEGORICAL','NUMERIC','BOOLEAN','CATEGORICAL','NUMERIC','BOOLEAN','BOOLEAN','CATEGORICAL','NUMERIC'])[1 + k]::"ScoreDataType",
       CASE WHEN k IN (1, 4, 8) THEN NULL WHEN k IN (0, 3, 6, 7) THEN (i + k) % 2 ELSE ((i * 7 + k) % 100) / 100.0 END,
       CASE k WHEN 1 THEN (ARRAY['search','sql','web'])[1 + (i + 1) % 3] WHEN 4 THEN (ARRAY['friendly','curt','neutral'])[1 + i % 3]
              WHEN 8 THEN (ARRAY['a','b','c','d'])[1 + i % 4] END,
       'SDK', 'key', 'bench', to_timestamp(${start / 1000} + (i::float8 / ${TRACES}) * ${30 * 86_400})
  FROM generate_series(${first}, ${Math.min(TRACES, first + SEED_CHUNK - 1)}) i CROSS JOIN generate_series(0, ${SCORES_PER_TRACE - 1}) k`);
  }
  // Fold the rollup deltas in, as the housekeeping timer does (lib/features/insights/compact.ts), and
  // catch up the search index and the stored paths of the seeded traces: left queued, the
  // housekeeping ran them during the measured writes, which then competed with it.
  await db.sql.exec('SELECT "insights_compact"()');
  await indexSearchBacklog(db.sql, Infinity, 1_000);
  while ((await compactPathsOnce(db.sql)) > 0);
  await db.sql.exec('VACUUM ANALYZE');
  console.log(`seeded ${TRACES} traces, ${TRACES * SCORES_PER_TRACE} scores in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  if (SEED_DB !== undefined) {
    // Kept for later runs: this database becomes the template, the run goes on in a copy.
    await db.close();
    const keep = new pg.Client({ connectionString: adminUrl });
    await keep.connect();
    await keep.query(`ALTER DATABASE ${dbName} RENAME TO ${SEED_DB}`);
    await keep.query(`CREATE DATABASE ${dbName} TEMPLATE ${SEED_DB}`);
    await keep.end();
    db = await openDatabase(url.toString());
    installDatabase(db);
  }
}

// ---- POST /api/scores: 100 per request, CLIENTS clients ----
const post = (body: string) =>
  scoresRoute(new Request('http://bench/api/scores', { method: 'POST', headers: { authorization: 'Bearer bench-scores-key', 'content-type': 'application/json' }, body }));
function batchBody(): string {
  const scores = Array.from({ length: BATCH }, (_, j) => {
    const i = 1 + Math.floor(Math.random() * TRACES);
    return j % 2 === 0
      ? { id: randomUUID(), traceId: `bt-${i}`, name: 'bench.quality', value: Math.random(), comment: 'posted by the bench' }
      : { traceId: `bt-${i}`, decisionPointId: 'd1', name: 'decision.correct', value: Math.random() < 0.5 };
  });
  return JSON.stringify({ scores });
}
if (PARTS.has('post')) {
  for (let i = 0; i < 20; i++) await post(batchBody()); // warm-up
  const latencies: number[] = [];
  let written = 0;
  let failed = 0;
  const deadline = performance.now() + SECONDS * 1000;
  t0 = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (performance.now() < deadline) {
        const body = batchBody();
        const started = performance.now();
        const res = await post(body);
        latencies.push(performance.now() - started);
        if (res.status === 200) written += ((await res.json()) as { count: number }).count;
        else failed++;
      }
    }),
  );
  const elapsed = (performance.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  console.log(
    `POST /api/scores ${BATCH}/request, ${CLIENTS} clients, ${elapsed.toFixed(1)} s: ${Math.round(written / elapsed)} scores/s, ` +
      `${latencies.length} requests, failed ${failed}, p50 ${percentile(latencies, 50).toFixed(0)} ms, p95 ${percentile(latencies, 95).toFixed(0)} ms, ${load()}`,
  );
  await db.sql.exec('SELECT "insights_compact"()');
  await db.sql.exec('VACUUM ANALYZE');
}

// ---- score insights over 30 days ----
const ctx = systemContext(db, 'bench');
const window = { from: new Date(start).toISOString(), to: new Date(end + DAY).toISOString() };
async function timed(label: string, call: () => Promise<unknown>) {
  await call();
  const ms: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    await call();
    ms.push(performance.now() - started);
  }
  ms.sort((a, b) => a - b);
  console.log(`${label.padEnd(52)} p50 ${percentile(ms, 50).toFixed(1)} ms, p95 ${percentile(ms, 95).toFixed(1)} ms (${RUNS} runs, ${load()})`);
}
if (PARTS.has('insights')) {
  await timed('score figures, 30 days', () => reviewFigures(ctx, window));
  await timed('score figures, 30 days, status=ERROR', () => reviewFigures(ctx, { ...window, status: 'ERROR' }));
  await timed('GET /api/insights/decisions, 30 days (whole route)', () =>
    decisionsRoute(new Request(`http://bench/api/insights/decisions?from=${window.from}&to=${window.to}`, { headers: { authorization: 'Bearer bench-scores-key' } })).then((r) => r.text()),
  );
}

// ---- the review queue's next item, 4 reviewers asking in turn ----
const { nextReview } = await import('@/lib/features/reviews');
const reviewers = Array.from({ length: 4 }, (_, k) => ({
  principal: { mode: 'protected' as const, keysOnly: false, credential: { kind: 'session' as const, identity: { userId: `r${k}`, email: `r${k}@bench`, name: `r${k}`, role: 'viewer' as const } } },
  db,
  config: getConfig(),
}));
let turn = 0;
if (PARTS.has('queue')) {
  const queueCases = async (label: string) => {
    await timed(`review queue next item (any), ${label}`, () => nextReview(reviewers[turn++ % 4], {}, []));
    await timed(`review queue next item (type, option), ${label}`, () =>
      nextReview(reviewers[turn++ % 4], { type: 'TOOL_SELECTION', option: 'sql' }, []),
    );
    await timed(`review queue next item (last 7 days), ${label}`, () =>
      nextReview(reviewers[turn++ % 4], { from: new Date(end - 7 * DAY).toISOString() }, []),
    );
  };
  await queueCases('all reviewed');
  // 1% of the decisions unreviewed again, spread over the month.
  t0 = performance.now();
  await db.sql.exec(`DELETE FROM "Score" WHERE "name" = 'decision.correct' AND "traceId" IN (SELECT 'bt-' || i FROM generate_series(100, ${TRACES}, 100) i)`);
  console.log(`deleted the reviews of 1% of the decisions in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  await db.sql.exec('VACUUM ANALYZE');
  const left = await nextReview(reviewers[0], {}, []);
  console.log(`progress: ${left.progress.reviewed} of ${left.progress.total} reviewed`);
  await queueCases('1% unreviewed');
}

await db.close();
const drop = new pg.Client({ connectionString: adminUrl });
await drop.connect();
await drop.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
await drop.end();
