// Live rule evaluators under ingest, on PostgreSQL 15, against the production build served
// by `next start` (its own background work evaluates, as in a deployment):
//   1. the JSON ingest rate with no evaluator (closed loop, CLIENTS clients, batches of 100);
//   2. the same with five live rule evaluators (contains, regex, json_schema, max_cost,
//      max_duration), the evaluation lag sampled every second; then once the queue is
//      empty, without again (the evaluators off), the ratio taken to the mean of both;
//   3. RATE traces/s paced for SECONDS seconds with the five, the lag sampled every second,
//      then how long the queue takes to empty.
// The lag is the age of the oldest evaluation still due: a job queued or running, or an
// ended trace not yet made into its jobs ("EvaluationQueue").
//   npx tsx --conditions=react-server scripts/bench/evaluators.ts [--dist-dir .next-e2e] [--seconds 20] [--rate 1000] [--clients 4]
// Used for the figures in docs/benchmarks.md ("Evaluators").
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { openPostgresRaw } from './database';
import { HttpClient } from './http';
import { freePort, startPostgres } from './postgres';
import { buildExists, startServer } from './server';

const arg = (name: string, fallback: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1] : fallback;
};
const DIST = arg('dist-dir', '.next-e2e');
const SECONDS = Number(arg('seconds', '20'));
const RATE = Number(arg('rate', '1000'));
const CLIENTS = Number(arg('clients', '4'));
const BATCH = 100;
const KEY = 'bench-evaluators-key';
const log = (msg: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${msg}`);

if (!buildExists(DIST)) throw new Error(`no production build in ${DIST}: NEXT_DIST_DIR=${DIST} npx next build`);

/** A batch of small agent runs: a root span with an output, a tool call, two decisions. */
function batchBody(size: number): string {
  const now = Date.now();
  const at = (ms: number) => new Date(now - 5_000 + ms).toISOString();
  const traces = Array.from({ length: size }, (_, i) => ({
    id: `ev-${randomUUID()}`,
    name: 'support-agent',
    status: i % 10 === 0 ? 'ERROR' : 'COMPLETED',
    tags: ['bench'],
    totalCost: (i % 7) * 0.01,
    startedAt: at(0),
    endedAt: at(1000 + (i % 5) * 500),
    decisionPoints: [
      { id: 'd1', type: 'TOOL_SELECTION', chosen: { tool: 'lookup_order' }, alternatives: [{ tool: 'search' }], timestamp: at(100) },
      { id: 'd2', type: 'ROUTING', chosen: 'reply', alternatives: ['escalate'], timestamp: at(600) },
    ],
    spans: [
      { id: 'root', name: 'agent', type: 'AGENT', status: 'COMPLETED', input: { question: `Where is order ${i}?` }, output: { answer: i % 3 ? 'Your refund is on its way' : 'Shipped', order: i }, startedAt: at(0), endedAt: at(1000) },
      { id: 'tool', parentSpanId: 'root', name: 'lookup_order', type: 'TOOL_CALL', status: 'COMPLETED', input: { order: i }, output: { state: 'shipped' }, startedAt: at(150), endedAt: at(400) },
    ],
    events: [],
  }));
  return JSON.stringify({ traces });
}

const EVALUATORS: Array<[string, string, unknown]> = [
  ['mentions refund', 'contains', { value: 'refund', ignoreCase: true }],
  ['order number', 'regex', { pattern: 'order|shipped', ignoreCase: true }],
  ['answer shape', 'json_schema', { schema: { type: 'object', required: ['answer', 'order'] } }],
  ['cheap', 'max_cost', { max: 0.05 }],
  ['fast', 'max_duration', { max: 2000 }],
];

const pct = (xs: number[], p: number) => {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)];
};

async function main() {
  const cluster = await startPostgres({ log });
  await (await openPostgresRaw(cluster.url, { migrate: true })).close();
  const server = await startServer({ distDir: DIST, port: await freePort(), env: { API_KEYS: KEY, DATABASE_URL: cluster.url, MAX_BODY_BYTES: String(32 * 2 ** 20) }, log });
  const http = new HttpClient(server.baseUrl, 64, { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' });
  const db = new pg.Client({ connectionString: cluster.url });
  await db.connect();
  // The oldest work waiting: a job, or an ended trace not yet made into its jobs.
  const lagMs = async () =>
    Number(
      (
        await db.query(`SELECT coalesce(extract(epoch FROM now() - least(
          (SELECT min("notBefore") FROM "EvaluationJob" WHERE "state" IN ('queued', 'running')),
          (SELECT min("queuedAt") FROM "EvaluationQueue"))) * 1000, 0)::float8 AS lag`)
      ).rows[0].lag,
    );
  const due = async () =>
    Number((await db.query(`SELECT (SELECT count(*) FROM "EvaluationJob" WHERE "state" IN ('queued', 'running')) + (SELECT count(*) FROM "EvaluationQueue") AS n`)).rows[0].n);
  const post = async () => {
    const r = await http.request('POST', '/api/traces', { body: batchBody(BATCH) });
    if (r.status !== 200) throw new Error(`ingest answered ${r.status}: ${r.body.toString().slice(0, 200)}`);
  };
  const sampleLag = () => {
    const samples: number[] = [];
    const timer = setInterval(() => void lagMs().then((l) => samples.push(l)), 1_000);
    return () => (clearInterval(timer), samples);
  };
  /** Closed loop: CLIENTS clients posting batches back to back for SECONDS; traces/s. */
  const closedLoop = async () => {
    let traces = 0;
    const end = Date.now() + SECONDS * 1000;
    const started = Date.now();
    await Promise.all(Array.from({ length: CLIENTS }, async () => {
      while (Date.now() < end) {
        await post();
        traces += BATCH;
      }
    }));
    return traces / ((Date.now() - started) / 1000);
  };
  const drain = async () => {
    const started = Date.now();
    while ((await due()) > 0) await new Promise((r) => setTimeout(r, 250));
    return (Date.now() - started) / 1000;
  };

  await post(); // warm the server up
  log(`ingest without evaluators: ${CLIENTS} clients, batches of ${BATCH}, ${SECONDS} s`);
  const without = await closedLoop();
  log(`  ${without.toFixed(0)} traces/s`);

  for (const [name, kind, config] of EVALUATORS) {
    await db.query(`INSERT INTO "Evaluator" ("id", "name", "kind", "config", "scoreName", "targetOn") VALUES ($1, $2, $3, $4, $5, 'live')`, [randomUUID(), name, kind, JSON.stringify(config), name.replace(/ /g, '_')]);
  }
  log(`ingest with ${EVALUATORS.length} live rule evaluators: same load`);
  let stop = sampleLag();
  const withFive = await closedLoop();
  let lags = stop();
  log(`  ${withFive.toFixed(0)} traces/s: ${(withFive / without).toFixed(2)} of without; lag p50 ${(pct(lags, 0.5) / 1000).toFixed(1)} s, p95 ${(pct(lags, 0.95) / 1000).toFixed(1)} s, max ${(pct(lags, 1) / 1000).toFixed(1)} s`);
  log(`  queue emptied ${(await drain()).toFixed(1)} s after ingest stopped`);
  // Again without (evaluators off), so a rate that falls as the tables grow is not taken for their cost.
  await db.query(`UPDATE "Evaluator" SET "enabled" = false`);
  log('ingest without evaluators again (turned off): same load');
  const withoutAgain = await closedLoop();
  const baseline = (without + withoutAgain) / 2;
  log(`  ${withoutAgain.toFixed(0)} traces/s; with five: ${(withFive / baseline).toFixed(2)} of the mean without (${baseline.toFixed(0)} traces/s)`);
  await db.query(`UPDATE "Evaluator" SET "enabled" = true`);

  log(`paced ingest at ${RATE} traces/s for ${SECONDS} s with the ${EVALUATORS.length} evaluators`);
  stop = sampleLag();
  const per = Math.max(1, Math.round(RATE / 10));
  const inflight = new Set<Promise<void>>();
  const started = Date.now();
  let sent = 0;
  let late = 0;
  for (let tick = 0; Date.now() - started < SECONDS * 1000; tick++) {
    const wait = started + tick * 100 - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    else late++;
    const p = (async () => {
      const r = await http.request('POST', '/api/traces', { body: batchBody(per) });
      if (r.status !== 200) throw new Error(`ingest answered ${r.status}`);
    })().finally(() => inflight.delete(p));
    inflight.add(p);
    sent += per;
  }
  await Promise.all(inflight);
  const achieved = sent / ((Date.now() - started) / 1000);
  lags = stop();
  log(`  sent ${sent} traces (${achieved.toFixed(0)} traces/s; ${late} ticks late); lag p50 ${(pct(lags, 0.5) / 1000).toFixed(1)} s, p95 ${(pct(lags, 0.95) / 1000).toFixed(1)} s, max ${(pct(lags, 1) / 1000).toFixed(1)} s`);
  log(`  queue emptied ${(await drain()).toFixed(1)} s after ingest stopped`);
  const scores = Number((await db.query(`SELECT count(*)::int AS n FROM "Score" WHERE "source" = 'EVAL'`)).rows[0].n);
  const traces = Number((await db.query(`SELECT count(*)::int AS n FROM "Trace"`)).rows[0].n);
  log(`  ${scores} evaluator scores for ${traces} traces`);

  await db.end();
  await server.stop();
  cluster.stop();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
