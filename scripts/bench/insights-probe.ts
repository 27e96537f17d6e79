// What hour rollups would cost to read (issue 12, "Scale"), before building them into the
// write path: seeds the insights data set of bench/insights.ts on a throwaway PostgreSQL,
// builds prototype rollup tables from the raw rows (the full recount a migration's
// backfill would run, timed), then times the statements the two insights calls would run
// against them for a 24-hour and a 30-day window ending at the newest trace, and the duration
// percentiles from raw rows over a covering index. Nothing here is used by the app.
//   npx tsx --conditions=react-server scripts/bench/insights-probe.ts [--traces 100000] [--runs 15] [--seed 42]
import pg from 'pg';
import { Prisma } from '@/lib/generated/prisma/client';
import { systemContext } from '@/lib/context';
import type { Database, Db } from '@/lib/db';
import { decisionInsights, parseDecisionParams } from '@/lib/insights/decisions';
import { offeredLabelsSql, optionLabelSql } from '@/lib/insights/label-sql';
import { overviewInsights, parseOverviewParams } from '@/lib/insights/overview';
import { openPostgresRaw } from './database';
import { seedInsightsData } from './insights';
import { startPostgres } from './postgres';
import { quantile } from './stats';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const TRACES = arg('traces', 100_000);
const RUNS = arg('runs', 15);
const SEED = arg('seed', 42);
const t0 = performance.now();
const log = (msg: string) => console.log(`[${((performance.now() - t0) / 1000).toFixed(0).padStart(4)}s] ${msg}`);

const sqlText = (s: Prisma.Sql) => {
  if (s.values.length) throw new Error('label SQL is expected to be parameter-free');
  return s.sql;
};
const chosenLabel = sqlText(optionLabelSql(Prisma.raw('d."chosen"')));
const offered = sqlText(offeredLabelsSql(Prisma.raw('dp.chosen_label'), Prisma.raw('dp."alternatives"')));

// The recount: per (UTC hour of the trace's startedAt, status[, name] [, type[, label]]).
// A trace is in exactly one hour, so distinct-trace counts per row add up across rows.
const BUILD = [
  `CREATE TABLE r_trace AS
     SELECT date_trunc('hour', "startedAt" AT TIME ZONE 'UTC') AS hour, "status", count(*) AS traces,
            sum("totalCost") AS cost, sum("totalTokens") AS tokens
       FROM "Trace" GROUP BY 1, 2`,
  `CREATE TABLE r_type AS
     SELECT date_trunc('hour', t."startedAt" AT TIME ZONE 'UTC') AS hour, t."status", d."type", count(*) AS n,
            count(DISTINCT d."traceId") AS traces, sum(d."durationMs") AS dur_sum, count(d."durationMs") AS dur_n,
            sum(d."costUsd") AS cost_sum, count(d."costUsd") AS cost_n
       FROM "Trace" t JOIN "DecisionPoint" d ON d."traceId" = t."id" GROUP BY 1, 2, 3`,
  `CREATE TABLE r_option AS
     WITH dp AS (
       SELECT date_trunc('hour', t."startedAt" AT TIME ZONE 'UTC') AS hour, t."status", d."traceId", d."type", d."alternatives",
              ${chosenLabel} AS chosen_label
         FROM "Trace" t JOIN "DecisionPoint" d ON d."traceId" = t."id"
     ), o AS (
       SELECT dp.hour, dp."status", dp."traceId", dp."type", o.label, o.label = dp.chosen_label AS is_chosen
         FROM dp CROSS JOIN LATERAL ${offered} AS o
     )
     SELECT hour, "status", "type", label, count(*) FILTER (WHERE is_chosen) AS chosen, count(*) AS offered,
            count(DISTINCT "traceId") FILTER (WHERE is_chosen) AS chosen_traces
       FROM o GROUP BY 1, 2, 3, 4`,
  `CREATE TABLE r_name AS
     SELECT date_trunc('hour', t."startedAt" AT TIME ZONE 'UTC') AS hour, t."name", count(*) AS traces,
            coalesce(sum(p.retries), 0) AS retries, coalesce(sum(p.escalations), 0) AS escalations
       FROM "Trace" t LEFT JOIN (
         SELECT "traceId", count(*) FILTER (WHERE "type" = 'RETRY') AS retries, count(*) FILTER (WHERE "type" = 'ESCALATION') AS escalations
           FROM "DecisionPoint" WHERE "type" IN ('RETRY', 'ESCALATION') GROUP BY 1
       ) p ON p."traceId" = t."id"
      GROUP BY 1, 2`,
  `CREATE INDEX ON r_trace (hour)`,
  `CREATE INDEX ON r_type (hour)`,
  `CREATE INDEX ON r_option (hour)`,
  `CREATE INDEX ON r_name (hour)`,
  `CREATE INDEX trace_started_ended ON "Trace" ("startedAt") INCLUDE ("endedAt", "status")`,
  `VACUUM ANALYZE r_trace`,
  `VACUUM ANALYZE r_type`,
  `VACUUM ANALYZE r_option`,
  `VACUUM ANALYZE r_name`,
  `VACUUM ANALYZE "Trace"`,
];

// $1, $2: the whole hours of the window (timestamp without time zone, UTC); $3: day or hour.
const READS: Record<string, string> = {
  'overview: counts and sums per bucket (r_trace)': `
    SELECT date_trunc($3, hour) AS b, sum(traces), sum(traces) FILTER (WHERE "status" = 'ERROR'), sum(cost), sum(tokens)
      FROM r_trace WHERE hour >= $1 AND hour < $2 GROUP BY 1`,
  'overview: p50/p95 duration per bucket and total (raw, covering index)': `
    WITH w AS (SELECT date_trunc($3, "startedAt" AT TIME ZONE 'UTC') AS b, (extract(epoch FROM "endedAt" - "startedAt") * 1000)::float8 AS d
                 FROM "Trace" WHERE "startedAt" >= $1 AT TIME ZONE 'UTC' AND "startedAt" < $2 AT TIME ZONE 'UTC')
    SELECT b, percentile_cont(0.5) WITHIN GROUP (ORDER BY d), percentile_cont(0.95) WITHIN GROUP (ORDER BY d) FROM w GROUP BY ROLLUP (b)`,
  'decisions: byType and series (r_type)': `
    SELECT date_trunc($3, hour), "type", sum(n), sum(traces), sum(traces) FILTER (WHERE "status" = 'ERROR'), sum(dur_sum), sum(dur_n), sum(cost_sum), sum(cost_n)
      FROM r_type WHERE hour >= $1 AND hour < $2 GROUP BY ROLLUP ("type", date_trunc($3, hour))`,
  'decisions: options, top 100 per type (r_option)': `
    WITH o AS (SELECT "type", label, sum(chosen) AS chosen, sum(offered) AS offered, sum(chosen_traces) AS ct,
                      sum(chosen_traces) FILTER (WHERE "status" = 'ERROR') AS et
                 FROM r_option WHERE hour >= $1 AND hour < $2 AND $3 <> '' GROUP BY 1, 2)
    SELECT * FROM (SELECT *, row_number() OVER (PARTITION BY "type" ORDER BY chosen DESC, offered DESC, label COLLATE "C") AS r FROM o) x WHERE r <= 100`,
  'decisions: rates by trace name, top 100 (r_name)': `
    SELECT "name", sum(traces) AS traces, sum(retries), sum(escalations)
      FROM r_name WHERE hour >= $1 AND hour < $2 AND $3 <> '' GROUP BY 1 ORDER BY traces DESC, "name" COLLATE "C" LIMIT 100`,
  'decisions: rates by trace name, top 100 (raw trace rows + RETRY/ESCALATION)': `
    SELECT t."name", count(*) AS traces, sum(p.r), sum(p.e)
      FROM "Trace" t LEFT JOIN LATERAL (
        SELECT count(*) FILTER (WHERE d."type" = 'RETRY') AS r, count(*) FILTER (WHERE d."type" = 'ESCALATION') AS e
          FROM "DecisionPoint" d WHERE d."traceId" = t."id" AND d."type" IN ('RETRY', 'ESCALATION')) p ON true
     WHERE t."startedAt" >= $1 AT TIME ZONE 'UTC' AND t."startedAt" < $2 AT TIME ZONE 'UTC' AND $3 <> ''
     GROUP BY 1 ORDER BY traces DESC, t."name" COLLATE "C" LIMIT 100`,
};

/** A context whose database is only the statement-capturing client. */
function probeContext(prisma: Db) {
  return systemContext({ kind: 'postgres', prisma } as unknown as Database, 'bench');
}

/** The one statement an insights verb sends, captured instead of run. */
async function statementOf(run: (db: Db) => Promise<unknown>): Promise<{ text: string; values: unknown[] }> {
  let captured: Prisma.Sql | undefined;
  const fake = {
    $queryRaw: (strings: TemplateStringsArray, ...values: unknown[]) => {
      captured = Prisma.sql(strings, ...values);
      return Promise.reject(new Error('captured'));
    },
  } as unknown as Db;
  await run(fake).catch(() => undefined);
  if (!captured) throw new Error('no statement captured');
  return { text: captured.text, values: captured.values };
}

async function main() {
  const cluster = await startPostgres({ log });
  try {
    const raw = await openPostgresRaw(cluster.url, { migrate: true });
    const data = await seedInsightsData({
      raw,
      names: 'run',
      seed: SEED + 12,
      traces: TRACES,
      seedStep: (step, r) => log(`seed (${step}): ${r.records} records in ${r.seconds.toFixed(1)} s`),
      log,
    });
    await raw.close();
    const client = new pg.Client({ connectionString: cluster.url });
    await client.connect();
    const [{ dp }] = (await client.query('SELECT count(*)::int AS dp FROM "DecisionPoint"')).rows as { dp: number }[];
    log(`${data.traces} traces, ${dp} decision points`);
    for (const statement of BUILD) {
      const started = performance.now();
      await client.query(statement);
      log(`  ${statement.split('\n')[0].trim().slice(0, 60)}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }
    const sizes = await client.query(
      `SELECT relname, reltuples::bigint AS rows, pg_size_pretty(pg_total_relation_size(oid)) AS size FROM pg_class WHERE relname IN ('r_trace', 'r_type', 'r_option', 'r_name', 'Trace', 'DecisionPoint') ORDER BY relname`,
    );
    for (const r of sizes.rows) log(`  ${r.relname}: ${r.rows} rows, ${r.size}`);
    const hour = 3600_000;
    // The raw statements the app runs today, timed in process and EXPLAIN ANALYZEd.
    const plans: string[] = [];
    for (const [label, ms] of [['24h', 24 * hour], ['30d', 30 * 24 * hour]] as const) {
      const query = new URLSearchParams({ from: new Date(data.end - ms).toISOString(), to: new Date(data.end).toISOString() });
      query.set('bucket', label === '24h' ? 'hour' : 'day');
      for (const [call, run] of [
        ['overview', (db: Db) => overviewInsights(probeContext(db), parseOverviewParams(query))],
        ['decisions', (db: Db) => decisionInsights(probeContext(db), parseDecisionParams(query))],
      ] as const) {
        const { text, values } = await statementOf(run);
        const times: number[] = [];
        for (let i = 0; i < (label === '24h' ? 5 : 2); i++) {
          const started = performance.now();
          await client.query(text, values);
          times.push(performance.now() - started);
        }
        log(`${label} raw ${call} (as the app runs it): ${times.map((t) => t.toFixed(0)).join(', ')} ms`);
        const plan = await client.query(`EXPLAIN (ANALYZE, BUFFERS) ${text}`, values);
        plans.push(`--- ${label} ${call}\n${plan.rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n')}`);
      }
    }
    (await import('node:fs')).writeFileSync(`/tmp/insights-probe-plans-${TRACES}.txt`, plans.join('\n\n'));
    log(`raw plans in /tmp/insights-probe-plans-${TRACES}.txt`);
    for (const [label, ms, bucket] of [['24h', 24 * hour, 'hour'], ['30d', 30 * 24 * hour, 'day']] as const) {
      // The interior whole hours of the window ending at the newest trace.
      const to = Math.floor(data.end / hour) * hour;
      const from = Math.ceil((data.end - ms) / hour) * hour;
      const params = [new Date(from).toISOString().slice(0, 19), new Date(to).toISOString().slice(0, 19), bucket];
      for (const [name, text] of Object.entries(READS)) {
        const times: number[] = [];
        for (let i = 0; i < RUNS + 2; i++) {
          const started = performance.now();
          await client.query(text, params);
          if (i >= 2) times.push(performance.now() - started);
        }
        log(`${label} ${name}: p50 ${quantile(times, 0.5).toFixed(1)} ms, p95 ${quantile(times, 0.95).toFixed(1)} ms`);
      }
    }
    await client.end();
  } finally {
    cluster.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
