// Decision paths scenario (issue 27, "Scale"): GET /api/insights/paths for a 30-day window
// ending at the newest trace, for one trace name and across all names, and the trace
// list's `path=` and `fork=&chosen=` filters, on a data set whose decisions follow paths
// as an agent fleet's do: each trace has 10 decision points, a routing choice among three
// routes of its agent, then three tools of that route in runs of repeats, sometimes with a
// fallback tool in the middle (~2,000 distinct paths, a few hundred names "<agent>:
// <task>"); failures are likelier on some routes and after a fallback, so the forks differ.
// Seeded with COPY as the insights data set is (bench/seed.ts), 10 decision points per
// trace: 1M traces give 10M decision points. One client, as the insights scenario.
import { AGENTS, Rng, type GenDecisionPoint, type GenTrace } from './generate';
import { runClosedLoop } from './http';
import { INSIGHTS_SHAPE } from './insights';
import type { RawDb } from './database';
import { measure, type Bounds, type Ctx, type ScenarioResult } from './scenarios';
import { seedTraces, vacuumAnalyze, type SeedResult } from './seed';

const DAY_MS = 24 * 3600 * 1000;
const ROUTES = ['billing', 'support', 'research'] as const;
const TOOLS = ['web_search', 'sql_query', 'http_get', 'calculator', 'kb_lookup', 'send_email', 'python', 'summarize'] as const;
/** How the nine tool selections after the routing split into runs of the route's three tools. */
const SPLITS = [[3, 3, 3], [3, 3, 3], [2, 3, 4], [4, 4, 1], [1, 4, 4], [3, 2, 4]] as const;
const DECISIONS = 10;

/** The trace with its name without " #<n>" and its decisions replaced by a path of the model above. */
export function pathTrace(trace: GenTrace, seed: number, index: number): GenTrace {
  const rng = new Rng(seed, index, 0x9a75);
  const name = trace.name.replace(/ #\d+$/, '');
  const agent = Math.max(0, AGENTS.findIndex((a) => name.startsWith(`${a}:`)));
  const roll = rng.next();
  const route = roll < 0.6 ? 0 : roll < 0.85 ? 1 : 2;
  const tools = [0, 1, 2].map((k) => TOOLS[(agent * 3 + route * 2 + k * 3) % TOOLS.length]);
  const split = rng.pick(SPLITS);
  const labels: string[] = [];
  split.forEach((n, k) => {
    for (let i = 0; i < n; i++) labels.push(tools[k]);
  });
  // A fallback tool at one of the tool selections, in 15% of the runs.
  const fallback = rng.next() < 0.15 ? rng.int(0, labels.length - 1) : -1;
  if (fallback >= 0) labels[fallback] = TOOLS[(agent + route + 5) % TOOLS.length] === labels[fallback] ? 'python' : TOOLS[(agent + route + 5) % TOOLS.length];
  const start = Date.parse(trace.startedAt);
  const parent = trace.spans[0]?.id ?? null;
  const decision = (i: number, type: GenDecisionPoint['type'], chosen: GenDecisionPoint['chosen'], base: GenDecisionPoint): GenDecisionPoint => ({
    ...base,
    type,
    chosen,
    parentSpanId: parent,
    timestamp: new Date(start + 10 * (i + 1)).toISOString(),
  });
  const originals = trace.decisionPoints;
  const decisionPoints = [decision(0, 'ROUTING', { route: ROUTES[route], confidence: 0.9 }, originals[0])];
  labels.forEach((tool, i) => decisionPoints.push(decision(i + 1, 'TOOL_SELECTION', { tool, confidence: 0.8 }, originals[i + 1])));
  let status = trace.status;
  if (status !== 'RUNNING') {
    const errorRate = 0.04 + (route === 2 ? 0.2 : 0) + (fallback >= 0 ? 0.25 : 0);
    status = rng.next() < errorRate ? 'ERROR' : 'COMPLETED';
  }
  return { ...trace, name, status, decisionPoints };
}

export interface PathsDataSet {
  traces: number;
  /** The window's end: one millisecond after the newest trace's startedAt. */
  end: number;
  newestName: string;
}

/** Seeds `traces` traces of 10 decision points (indexes [0, traces)) with COPY, then builds what reads need, then VACUUM ANALYZE. */
export async function seedPathsData(options: {
  raw: RawDb;
  seed: number;
  traces: number;
  seedStep: (step: string, r: SeedResult) => void;
  log: (msg: string) => void;
}): Promise<PathsDataSet> {
  const { raw, seed, traces, seedStep, log } = options;
  const shape = { ...INSIGHTS_SHAPE, decisionPoints: DECISIONS };
  const r = await seedTraces(raw, {
    seed,
    from: 0,
    to: traces,
    shape,
    population: traces,
    chunk: 2000,
    transform: (trace, index) => pathTrace(trace, seed, index),
    onProgress: (done, total) => {
      if (done && done % 50_000 === 0) log(`  seeding ${done}/${total}`);
    },
  });
  seedStep(`paths traces (${DECISIONS} decision points each), ${traces}`, r);
  // What a server that received these over time would have done in the background: the
  // insights deltas folded, and (when this build stores paths) every trace's path stored.
  const started = performance.now();
  const conn = await raw.connect();
  try {
    await conn.query('SELECT "insights_compact"()');
    const [{ stored }] = await conn.query<{ stored: boolean }>(`SELECT to_regproc('paths_compact') IS NOT NULL AS stored`);
    if (stored) {
      let total = 0;
      for (let n = -1; n !== 0; total += Math.max(0, n)) [{ n }] = await conn.query<{ n: number }>('SELECT "paths_compact"(20000) AS n');
      log(`paths: stored the paths of ${total} traces`);
    }
  } finally {
    await conn.release();
  }
  seedStep('paths: insights deltas folded, paths stored', { traces: 0, records: 0, seconds: (performance.now() - started) / 1000 });
  const vac = await vacuumAnalyze(raw);
  const extra = await raw.connect();
  try {
    const [{ tables }] = await extra.query<{ tables: string[] }>(
      `SELECT coalesce(array_agg(relname::text), '{}') AS tables FROM pg_class
        WHERE relkind = 'r' AND relname IN ('TracePath', 'TracePathDirty', 'DecisionPath', 'InsightsTraceDelta', 'InsightsTypeDelta', 'InsightsOptionDelta', 'InsightsNameDelta')`,
    );
    for (const t of tables) await extra.query(`VACUUM (ANALYZE) "${t}"`);
  } finally {
    await extra.release();
  }
  seedStep('VACUUM ANALYZE', { traces: 0, records: 0, seconds: vac });
  const conn2 = await raw.connect();
  try {
    const [row] = await conn2.query<{ n: string; end: string; name: string }>(
      `SELECT (SELECT count(*) FROM "Trace")::text AS n,
              (extract(epoch FROM "startedAt") * 1000)::bigint::text AS end, "name"
         FROM "Trace" ORDER BY "startedAt" DESC, "id" DESC LIMIT 1`,
    );
    return { traces: Number(row.n), end: Number(row.end) + 1, newestName: row.name };
  } finally {
    await conn2.release();
  }
}

export interface PathsCase {
  name: string;
  path: string;
}

interface PathsAnswer {
  totals: { traces: number };
  paths: Array<{ id: string; traces: number }>;
  forks: Array<{ id: string; label: string; traces: number }>;
}

/**
 * The 30-day window for the newest trace's name and for every name, then the list filtered
 * by that name's most common path and by its top fork's first option (ids read from the
 * answer, as the page's drill-down does).
 */
export async function pathsCases(ctx: Ctx, data: PathsDataSet): Promise<PathsCase[]> {
  const to = new Date(data.end).toISOString();
  const from = new Date(data.end - 30 * DAY_MS).toISOString();
  const named = `/api/insights/paths?${new URLSearchParams({ from, to, name: data.newestName })}`;
  const cases: PathsCase[] = [
    { name: 'paths 30d name=<newest trace>', path: named },
    { name: 'paths 30d', path: `/api/insights/paths?${new URLSearchParams({ from, to })}` },
    { name: 'paths/reviews 30d name=<newest trace>', path: `/api/insights/paths/reviews?${new URLSearchParams({ from, to, name: data.newestName })}` },
    { name: 'paths/reviews 30d', path: `/api/insights/paths/reviews?${new URLSearchParams({ from, to })}` },
  ];
  const r = await ctx.http.request('GET', named, { timeoutMs: 30 * 60_000 });
  if (r.status !== 200) throw new Error(`paths: HTTP ${r.status} ${r.body.toString().slice(0, 200)}`);
  const answer = JSON.parse(r.body.toString()) as PathsAnswer;
  const top = answer.paths[0];
  const fork = answer.forks[0];
  ctx.log(`  paths: the newest name has ${answer.paths.length} paths and ${answer.forks.length} fork options over ${answer.totals.traces} traces`);
  if (top) cases.push({ name: 'list path=<its top path>', path: `/api/traces?${new URLSearchParams({ path: top.id })}` });
  if (fork) cases.push({ name: 'list fork=<its top fork>&chosen', path: `/api/traces?${new URLSearchParams({ fork: fork.id, chosen: fork.label })}` });
  return cases;
}

export async function pathsScenario(ctx: Ctx, c: PathsCase, bounds: Bounds): Promise<ScenarioResult> {
  let checked = false;
  return measure(ctx, { group: 'paths', name: c.name, clients: 1 }, () =>
    runClosedLoop(
      async () => {
        const r = await ctx.http.request('GET', c.path, { timeoutMs: 30 * 60_000 });
        if (r.status !== 200) return { ok: false, ms: r.ms, error: `HTTP ${r.status} ${r.body.toString().slice(0, 200)}` };
        if (!checked) {
          checked = true;
          const j = JSON.parse(r.body.toString()) as Partial<PathsAnswer> & { traces?: unknown[]; branches?: unknown[] };
          if ('branches' in j) ctx.log(`  ${c.name}: ${(j as { reviewedTraces?: number }).reviewedTraces} reviewed traces, ${(j.branches as unknown[]).length} branches, ${(r.body.length / 1024).toFixed(0)} KB`);
          else if (j.paths) ctx.log(`  ${c.name}: ${j.totals?.traces} traces, ${j.paths.length} paths, ${j.forks?.length} fork options, ${(r.body.length / 1024).toFixed(0)} KB`);
          else ctx.log(`  ${c.name}: ${j.traces?.length} traces on the first page`);
        }
        return { ok: true, ms: r.ms };
      },
      { clients: 1, warmupPerClient: 1, ...bounds },
    ),
  );
}
