// Seeds the paths data set (bench/paths.ts) into an existing PostgreSQL database in
// resumable steps, so that 1M traces can be loaded in runs short enough to share the
// machine's heavy lock: each run migrates, goes on from the traces already stored (chunks
// commit whole, so the count is the next index) and stops after --seconds; the run that
// finds every trace stored (or --finish) folds the insights deltas, stores the paths and
// runs VACUUM ANALYZE, as the bench's own seeding does, and adds decision reviews on 1% of
// the traces (the bench's own data set has none). The result is what
// `npm run bench -- --only paths` measures, kept for paths-inprocess.ts.
//   npx tsx scripts/bench/paths-seed.ts postgresql://... [--traces 1000000] [--seconds 540] [--seed 42]
import { INSIGHTS_SHAPE } from './insights';
import { openPostgresRaw } from './database';
import { pathTrace } from './paths';
import { countTraces, seedTraces, vacuumAnalyze } from './seed';

const url = process.argv[2];
if (!url?.startsWith('postgres')) throw new Error('usage: paths-seed.ts <postgresql:// URL> [--traces N] [--seconds S] [--seed N] [--finish]');
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const TRACES = arg('traces', 1_000_000);
const SECONDS = arg('seconds', 540);
const SEED = arg('seed', 42);
const CHUNK = 2000;
const t0 = performance.now();
const log = (msg: string) => console.log(`[${((performance.now() - t0) / 1000).toFixed(0).padStart(5)}s] ${msg}`);

const raw = await openPostgresRaw(url, { migrate: true });
try {
  let done = await countTraces(raw);
  log(`${done} of ${TRACES} traces stored`);
  while (done < TRACES && (performance.now() - t0) / 1000 < SECONDS) {
    const to = Math.min(TRACES, done + 10 * CHUNK);
    const r = await seedTraces(raw, {
      seed: SEED,
      from: done,
      to,
      shape: INSIGHTS_SHAPE,
      population: TRACES,
      chunk: CHUNK,
      transform: (trace, index) => pathTrace(trace, SEED, index),
    });
    done = to;
    log(`stored traces up to ${done}: ${r.records} records in ${r.seconds.toFixed(1)} s`);
  }
  if (done >= TRACES || process.argv.includes('--finish')) {
    const conn = await raw.connect();
    try {
      await conn.query('SELECT "insights_compact"()');
      log('insights deltas folded');
      let stored = 0;
      for (let n = -1; n !== 0 && (performance.now() - t0) / 1000 < SECONDS; stored += Math.max(0, n)) {
        [{ n }] = await conn.query<{ n: number }>('SELECT "paths_compact"(20000) AS n');
      }
      const [{ left }] = await conn.query<{ left: number }>('SELECT count(*)::int AS left FROM "TracePathDirty"');
      log(`paths of ${stored} traces stored, ${left} marks left`);
      if (left === 0) {
        // Decision reviews, for the judged-right shares (paths, paths/reviews): every decision
        // of 1% of the traces judged, right when its trace completed, wrong when it failed.
        const [{ reviews }] = await conn.query<{ reviews: number }>(`SELECT count(*)::int AS reviews FROM "Score"`);
        if (reviews === 0) {
          const started = performance.now();
          await conn.query(
            `INSERT INTO "Score" ("id", "traceId", "decisionPointId", "name", "dataType", "value", "source", "authorKind", "authorName", "createdAt", "updatedAt")
             SELECT md5(d."traceId" || chr(31) || d."id"), d."traceId", d."id", 'decision.correct', 'BOOLEAN',
                    CASE WHEN t."status" = 'ERROR' THEN 0 ELSE 1 END, 'ANNOTATION', 'user', 'bench', t."startedAt", t."startedAt"
               FROM "Trace" t JOIN "DecisionPoint" d ON d."traceId" = t."id"
              WHERE abs(hashtext(t."id")) % 100 = 0`,
          );
          log(`decision reviews stored in ${((performance.now() - started) / 1000).toFixed(0)} s`);
        }
        log(`VACUUM ANALYZE in ${(await vacuumAnalyze(raw)).toFixed(0)} s`);
        for (const t of ['TracePath', 'TracePathDirty', 'DecisionPath', 'InsightsTraceDelta', 'Score']) await conn.query(`VACUUM (ANALYZE) "${t}"`);
        log('done');
      }
    } finally {
      await conn.release();
    }
  }
} finally {
  await raw.close();
}
