// Insights scenario (issue 12, "Scale"): GET /api/insights/overview and
// GET /api/insights/decisions over a data set of traces with 10 decision points each,
// startedAt spread over the generator's 90 days, for a 24-hour and a 30-day window ending
// at the newest trace, without a filter and with a name or status filter. Each call is
// sent as the /insights page sends it (with its default bucket: hour for 24 hours, day
// for 30 days). One client: the targets are per call (p95 < 100 ms for 24 hours,
// < 300 ms for 30 days on PostgreSQL at 1M traces; < 1 s on PGlite at 100k).
import { defaultBucket } from '@/lib/features/insights/shared';
import type { RawDb } from './database';
import { type TraceShape } from './generate';
import { runClosedLoop } from './http';
import { measure, type Bounds, type Ctx, type ScenarioResult } from './scenarios';
import { catchUpUpkeep, seedTraces, vacuumAnalyze, type SeedResult } from './seed';

/** The decision-heavy trace for insights: 10 decision points; one small span (cost and tokens come from the trace's totals). */
export const INSIGHTS_SHAPE: TraceShape = {
  decisionPoints: 10,
  spans: 1,
  events: 0,
  depth: 1,
  payloadMin: 60,
  payloadMax: 120,
};

const DAY_MS = 24 * 3600 * 1000;
export const INSIGHTS_WINDOWS = [
  { label: '24h', ms: DAY_MS },
  { label: '30d', ms: 30 * DAY_MS },
] as const;

export interface InsightsDataSet {
  traces: number;
  /** The window's end: one millisecond after the newest trace's startedAt. */
  end: number;
  /** The newest trace's name (the generator's names are "agent: task #n", nearly unique). */
  newestName: string;
}

/**
 * How the data set's traces are named: `run`, the generator's "<agent>: <task> #<n>"
 * (nearly unique: ratesByTraceName then groups ~one trace per name, its worst case);
 * `task`, the same names without " #<n>" (a few hundred names, as an agent fleet's
 * traces are usually named), rewritten by UPDATE after seeding, which the rollup
 * triggers follow.
 */
export type InsightsNames = 'run' | 'task';

/** Seeds `traces` insights traces (indexes [0, traces), population = traces) with COPY, then VACUUM ANALYZE. */
export async function seedInsightsData(options: {
  raw: RawDb;
  seed: number;
  traces: number;
  names: InsightsNames;
  seedStep: (step: string, r: SeedResult) => void;
  log: (msg: string) => void;
}): Promise<InsightsDataSet> {
  const { raw, seed, traces, names, seedStep, log } = options;
  const r = await seedTraces(raw, {
    seed,
    from: 0,
    to: traces,
    shape: INSIGHTS_SHAPE,
    population: traces,
    chunk: 2000,
    onProgress: (done, total) => {
      if (done && done % 50_000 === 0) log(`  seeding ${done}/${total}`);
    },
  });
  seedStep(`insights traces (10 decision points each), ${traces}`, r);
  if (names === 'task') {
    const renaming = performance.now();
    const conn2 = await raw.connect();
    try {
      // In batches of startedAt, each its own statement, as a migration would.
      const [{ lo, hi }] = await conn2.query<{ lo: string; hi: string }>(
        `SELECT (extract(epoch FROM min("startedAt")) * 1000)::bigint::text AS lo, (extract(epoch FROM max("startedAt")) * 1000)::bigint::text AS hi FROM "Trace"`,
      );
      const step = 2 * DAY_MS;
      for (let at = Number(lo); at <= Number(hi); at += step) {
        await conn2.query(
          `UPDATE "Trace" SET "name" = split_part("name", ' #', 1) WHERE "startedAt" >= $1 AND "startedAt" < $2 AND "name" LIKE '% #%'`,
          [new Date(at).toISOString(), new Date(at + step).toISOString()],
        );
      }
      // The renames queued every trace for search indexing; this data set is not searched
      // (seedTraces left it unqueued), so neither is it after the renames.
      await conn2.query('TRUNCATE "SearchQueue"');
      const [{ n }] = await conn2.query<{ n: string }>(`SELECT count(DISTINCT "name")::text AS n FROM "Trace"`);
      log(`insights: trace names rewritten to "<agent>: <task>": ${n} distinct names`);
    } finally {
      await conn2.release();
    }
    seedStep('insights: names without " #<n>" (UPDATE)', { traces: 0, records: 0, seconds: (performance.now() - renaming) / 1000 });
  }
  // The rollup triggers recorded every trace as deltas; fold them in now, as the
  // housekeeping job would have on a server that received them over time.
  const compacting = performance.now();
  const folded = await raw.connect();
  try {
    await folded.query('SELECT "insights_compact"()');
    // A cheap check that the rollups hold the data set (the tests compare them with a full
    // recount): every trace and decision point counted once.
    const [check] = await folded.query<{ traces: string; rolled_traces: string; decisions: string; rolled_decisions: string }>(
      `SELECT (SELECT count(*) FROM "Trace")::text AS traces, (SELECT sum("traces") FROM "InsightsTraceHour")::text AS rolled_traces,
              (SELECT count(*) FROM "DecisionPoint")::text AS decisions, (SELECT sum("decisions") FROM "InsightsTypeHour")::text AS rolled_decisions`,
    );
    if (check.traces !== check.rolled_traces || check.decisions !== check.rolled_decisions) {
      throw new Error(`insights rollups do not hold the data set: ${JSON.stringify(check)}`);
    }
    log(`insights: rollups hold ${check.rolled_traces} traces and ${check.rolled_decisions} decision points`);
    // The seeded traces are also queued for the search indexer and marked for stored paths:
    // caught up here, or the measured calls compete with the housekeeping (1.3-2.6 s a call,
    // docs/benchmarks.md).
    const { paths, indexed } = await catchUpUpkeep(raw);
    log(`insights: stored ${paths} paths and indexed ${indexed} traces for search before measuring`);
    // The delta tables too: folding deleted their 1.45M rows (at 1M traces), which stay
    // dead until vacuum. Left to autovacuum, two runs of four measured decisions 30d ~150
    // ms slower (reproduced by leaving 1M dead rows in the name deltas of another data
    // set). A server that ingests over time holds about a minute of them (autovacuum's nap).
    for (const table of [
      'InsightsTraceHour', 'InsightsTypeHour', 'InsightsOptionHour', 'InsightsNameHour', 'InsightsNameTotal',
      'InsightsTraceDelta', 'InsightsTypeDelta', 'InsightsOptionDelta', 'InsightsNameDelta',
    ]) {
      await folded.query(`VACUUM (ANALYZE) "${table}"`);
    }
  } finally {
    await folded.release();
  }
  seedStep('insights rollups: deltas folded in', { traces: 0, records: 0, seconds: (performance.now() - compacting) / 1000 });
  const vac = await vacuumAnalyze(raw);
  seedStep('VACUUM ANALYZE', { traces: 0, records: 0, seconds: vac });
  return describeInsightsData(raw);
}

export async function describeInsightsData(raw: RawDb): Promise<InsightsDataSet> {
  const conn = await raw.connect();
  try {
    const [row] = await conn.query<{ n: string; end: string; name: string }>(
      `SELECT (SELECT count(*) FROM "Trace")::text AS n,
              (extract(epoch FROM "startedAt") * 1000)::bigint::text AS end, "name"
         FROM "Trace" ORDER BY "startedAt" DESC, "id" DESC LIMIT 1`,
    );
    return { traces: Number(row.n), end: Number(row.end) + 1, newestName: row.name };
  } finally {
    await conn.release();
  }
}

export interface InsightsCase {
  name: string;
  path: string;
}

/** Both calls for both windows, without a filter, with the newest trace's name and with status=ERROR. */
export function insightsCases(data: InsightsDataSet): InsightsCase[] {
  const cases: InsightsCase[] = [];
  const to = new Date(data.end).toISOString();
  const filters: [string, Record<string, string>][] = [
    ['', {}],
    [' name=<newest trace>', { name: data.newestName }],
    [' status=ERROR', { status: 'ERROR' }],
  ];
  for (const w of INSIGHTS_WINDOWS) {
    const from = new Date(data.end - w.ms).toISOString();
    for (const call of ['overview', 'decisions'] as const) {
      for (const [label, filter] of filters) {
        const q = new URLSearchParams({ from, to, bucket: defaultBucket(from, to), ...filter });
        cases.push({ name: `${call} ${w.label}${label}`, path: `/api/insights/${call}?${q}` });
      }
    }
  }
  return cases;
}

export async function insightsScenario(ctx: Ctx, c: InsightsCase, bounds: Bounds): Promise<ScenarioResult> {
  let checked = false;
  return measure(ctx, { group: 'insights', name: c.name, clients: 1 }, () =>
    runClosedLoop(
      async () => {
        // Raw reads of a 30-day window at 1M traces take minutes: beyond the client's default 120 s.
        const r = await ctx.http.request('GET', c.path, { timeoutMs: 30 * 60_000 });
        if (r.status !== 200) return { ok: false, ms: r.ms, error: `HTTP ${r.status} ${r.body.toString().slice(0, 200)}` };
        if (!checked) {
          checked = true;
          const j = JSON.parse(r.body.toString()) as { totals?: { traces?: number } };
          if (typeof j.totals?.traces !== 'number') return { ok: false, ms: r.ms, error: 'insights response without totals.traces' };
          ctx.log(`  ${c.name}: ${j.totals.traces} traces in the window`);
        }
        return { ok: true, ms: r.ms };
      },
      // One warm-up call: the slowest cases then take two calls, not three.
      { clients: 1, warmupPerClient: 1, ...bounds },
    ),
  );
}
