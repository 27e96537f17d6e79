// Rule evaluation in process on PostgreSQL 15: 2,000 small traces ingested with N live rule
// evaluators on (default 5), then one worker run until the queue is empty; traces/s.
//   npx tsx --conditions=react-server scripts/bench/evaluators-profile.ts [N]
import { randomUUID } from 'node:crypto';
import { systemContext } from '@/lib/core/context';
import { openDatabase } from '@/lib/db/open';
import { sql } from '@/lib/db/sql';
import { ingestTraces } from '@/lib/features/ingest';
import { validateIngestBody } from '@/lib/features/ingest/shared';
import { runEvaluations } from '@/lib/features/evaluators';
import { openPostgresRaw } from './database';
import { startPostgres } from './postgres';

const cluster = await startPostgres({});
await (await openPostgresRaw(cluster.url, { migrate: true })).close();
const db = await openDatabase(cluster.url);
const ctx = systemContext(db, 'profile');
const EVALUATORS: Array<[string, string, unknown]> = [
  ['mentions refund', 'contains', { value: 'refund', ignoreCase: true }],
  ['order number', 'regex', { pattern: 'order|shipped', ignoreCase: true }],
  ['answer shape', 'json_schema', { schema: { type: 'object', required: ['answer', 'order'] } }],
  ['cheap', 'max_cost', { max: 0.05 }],
  ['fast', 'max_duration', { max: 2000 }],
];
for (const [name, kind, config] of EVALUATORS.slice(0, Number(process.argv[2] ?? 5))) {
  await db.sql.query(sql`INSERT INTO "Evaluator" ("id", "name", "kind", "config", "scoreName", "targetOn") VALUES (${randomUUID()}, ${name}, ${kind}, ${JSON.stringify(config)}::jsonb, ${name.replace(/ /g, '_')}, 'live')`);
}
const now = Date.now();
const at = (ms: number) => new Date(now - 5_000 + ms).toISOString();
for (let b = 0; b < 20; b++) {
  const traces = Array.from({ length: 100 }, (_, i) => ({
    id: `ev-${randomUUID()}`, name: 'support-agent', status: 'COMPLETED', tags: ['bench'], totalCost: (i % 7) * 0.01, startedAt: at(0), endedAt: at(1000),
    decisionPoints: [{ id: 'd1', type: 'TOOL_SELECTION', chosen: { tool: 'lookup_order' }, alternatives: [{ tool: 'search' }], timestamp: at(100) }],
    spans: [{ id: 'root', name: 'agent', type: 'AGENT', status: 'COMPLETED', input: { q: i }, output: { answer: 'Your refund is on its way', order: i }, startedAt: at(0), endedAt: at(1000) }],
    events: [],
  }));
  await ingestTraces(ctx, validateIngestBody({ traces }, { maxBatchTraces: 100, maxChildrenPerTrace: 100 }));
}
const t0 = performance.now();
const report = await runEvaluations(ctx, { budgetMs: 600_000 });
const ms = performance.now() - t0;
console.log(JSON.stringify(report), `${ms.toFixed(0)} ms for 2000 traces: ${(2000 / (ms / 1000)).toFixed(0)} traces/s`);
await db.close();
cluster.stop();
