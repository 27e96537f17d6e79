// Retention's cost on PostgreSQL (issue 13): N traces older than the retention period are
// seeded, then deleted by the app's own retention verb (lib/features/retention/delete.ts, 500 traces
// per statement and transaction, oldest first) from this process, while clients ingest
// 10-trace batches through the server's POST /api/traces. Reported: traces (and rows)
// deleted per second, each batch's time (the longest any ingest can wait on retention's
// counter locks), and ingest latency before and during retention.
import pg from 'pg';
import { pgPoolExecutor } from '@/lib/db/executor';
import { DELETE_BATCH_SIZE, deleteExpiredBatch } from '@/lib/features/retention';
import { BASE_TIME, FULL_SHAPE, LIST_SEED_SHAPE, type TraceShape } from './generate';
import type { RawDb } from './database';
import { IdSource, type BatchTemplate } from './rows';
import type { Ctx, ScenarioResult } from './scenarios';
import { seedTraces, vacuumAnalyze } from './seed';
import { quantile, summarize } from './stats';

export type RetentionShape = 'list' | 'full';
export const RETENTION_SHAPES: Record<RetentionShape, TraceShape> = { list: LIST_SEED_SHAPE, full: FULL_SHAPE };

export interface RetentionOptions {
  raw: RawDb;
  url: string;
  traces: number;
  shape: RetentionShape;
  templates: BatchTemplate[];
  clients: number;
  /** How long ingest is measured alone, before retention starts. */
  baselineMs: number;
  seedStep: (step: string, r: { traces: number; records: number; seconds: number }) => void;
}

interface Loop {
  latencies: number[];
  errors: number;
  firstError?: string;
  records: number;
  wallMs: number;
}

/** Clients ingesting batches in a closed loop until `until()` says stop. */
async function ingestUntil(ctx: Ctx, templates: BatchTemplate[], ids: IdSource, clients: number, until: () => boolean): Promise<Loop> {
  const headers = { authorization: `Bearer ${ctx.apiKey}`, 'content-type': 'application/json' };
  const loop: Loop = { latencies: [], errors: 0, records: 0, wallMs: 0 };
  const started = performance.now();
  let seq = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (!until()) {
        const tpl = templates[seq++ % templates.length];
        const r = await ctx.http.request('POST', '/api/traces', { body: tpl.body.render(ids.next(tpl.traces)), headers });
        if (r.status === 200) {
          loop.latencies.push(r.ms);
          loop.records += tpl.records;
        } else {
          loop.errors++;
          loop.firstError ??= `HTTP ${r.status} ${r.body.toString().slice(0, 200)}`;
          if (loop.errors > 20) return;
        }
      }
    }),
  );
  loop.wallMs = performance.now() - started;
  return loop;
}

export async function retentionScenario(ctx: Ctx, opts: RetentionOptions): Promise<ScenarioResult[]> {
  const shape = RETENTION_SHAPES[opts.shape];
  const childrenPerTrace = shape.spans + shape.decisionPoints + shape.events;
  // Seeded traces start in the 90 days before BASE_TIME; ingest templates far after it.
  const seeded = await seedTraces(opts.raw, {
    seed: ctx.seed + 7,
    from: 0,
    to: opts.traces,
    shape,
    population: opts.traces,
    onProgress: (done, total) => {
      if (done && done % 100_000 === 0) ctx.log(`  seeding ${done}/${total}`);
    },
  });
  opts.seedStep(`retention: ${opts.traces} expired traces (${opts.shape} shape, ${childrenPerTrace} children each)`, seeded);
  opts.seedStep('VACUUM ANALYZE', { traces: 0, records: 0, seconds: await vacuumAnalyze(opts.raw) });

  const ids = new IdSource(ctx.seed * 7919 + 13);
  ctx.log(`retention: ingest alone for ${opts.baselineMs / 1000} s (batch ${opts.templates[0].traces}, ${opts.clients} clients)`);
  const baselineEnd = performance.now() + opts.baselineMs;
  const alone = await ingestUntil(ctx, opts.templates, ids, opts.clients, () => performance.now() > baselineEnd);

  ctx.log(`retention: deleting ${opts.traces} expired traces, ${DELETE_BATCH_SIZE} per statement, while ingesting`);
  const pool = new pg.Pool({ connectionString: opts.url, max: 1 });
  const sql = pgPoolExecutor(pool);
  const cutoff = new Date(BASE_TIME + 1);
  const batchMs: number[] = [];
  let deleted = 0;
  let done = false;
  const started = performance.now();
  const [during] = await Promise.all([
    ingestUntil(ctx, opts.templates, ids, opts.clients, () => done),
    (async () => {
      try {
        for (;;) {
          const t = performance.now();
          const n = await deleteExpiredBatch(sql, cutoff);
          batchMs.push(performance.now() - t);
          deleted += n;
          if (deleted && deleted % 100_000 < DELETE_BATCH_SIZE) ctx.log(`  deleted ${deleted}/${opts.traces}`);
          if (n < DELETE_BATCH_SIZE) break;
        }
      } finally {
        done = true;
      }
    })(),
  ]);
  const seconds = (performance.now() - started) / 1000;
  const [left] = (await pool.query<{ old: number; drift: number }>(
    `SELECT (SELECT count(*)::int FROM "Trace" WHERE "startedAt" < $1) AS old,
            (SELECT count(*)::int FROM "TraceStatusTotal" c WHERE c.count <> (SELECT count(*) FROM "Trace" t WHERE t.status = c.status)) AS drift`,
    [cutoff.toISOString()],
  )).rows;
  await pool.end();

  const perSecond = deleted / seconds;
  const note =
    `${deleted} traces (${deleted * (1 + childrenPerTrace)} rows) deleted in ${seconds.toFixed(1)} s: ${Math.round(perSecond)} traces/s, ` +
    `${Math.round(perSecond * (1 + childrenPerTrace))} rows/s; batch of ${DELETE_BATCH_SIZE}: p50 ${quantile(batchMs, 0.5).toFixed(0)} ms, ` +
    `p95 ${quantile(batchMs, 0.95).toFixed(0)} ms, max ${Math.max(...batchMs).toFixed(0)} ms; left older than the cutoff: ${left.old}; ` +
    `status counts off a recount: ${left.drift}`;
  ctx.log(`  ${note}`);
  const row = (name: string, loop: Loop, extra?: string): ScenarioResult => ({
    db: ctx.db,
    group: 'retention',
    name,
    clients: opts.clients,
    batch: opts.templates[0].traces,
    storedTraces: opts.traces,
    summary: summarize(loop.latencies, loop.wallMs, loop.errors, loop.records),
    note: [extra, loop.errors ? `first error: ${loop.firstError}` : undefined].filter(Boolean).join('; ') || undefined,
  });
  const results = [
    row(`ingest batch ${opts.templates[0].traces}, alone`, alone),
    row(`ingest batch ${opts.templates[0].traces}, while retention deletes`, during, note),
  ];
  for (const r of results) {
    const s = r.summary;
    ctx.log(`  ${r.name}: n=${s.count} err=${s.errors} p50 ${s.medianMs.toFixed(1)} p95 ${s.p95Ms.toFixed(1)} p99 ${s.p99Ms.toFixed(1)} ms`);
  }
  return results;
}
