// Times the experiments reads in process (no HTTP) on a database it fills: a dataset of
// ITEMS items with expected decisions, two experiments whose runs (three decisions each,
// the second version choosing differently on a third of the items) arrive through the JSON
// ingest with each trace's experiment field; then GET /api/experiments/compare's verb for
// one page (limit 50, and onlyDifferent) and GET /api/experiments/{id}'s, RUNS times each,
// sorted ms per call.
//   npx tsx --conditions=react-server scripts/bench/experiments-inprocess.ts <postgresql:// URL | pglite> [--items 1000] [--runs 30]
// Used for the figures in docs/benchmarks.md ("Experiments").
import { systemContext } from '@/lib/core/context';
import { migrate, readMigrations } from '@/lib/db/migrate';
import { openDatabase } from '@/lib/db/open';
import { createDataset, upsertItems } from '@/lib/features/datasets';
import { compareExperiments, createExperiment, getExperiment } from '@/lib/features/experiments';
import { ingestTraces } from '@/lib/features/ingest';
import { validateIngestBody } from '@/lib/features/ingest/shared';

const target = process.argv[2];
if (!target) throw new Error('usage: experiments-inprocess.ts <postgresql:// URL | pglite> [--items N] [--runs N]');
const arg = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const ITEMS = arg('items', 1000);
const RUNS = arg('runs', 30);
const db = await openDatabase(target === 'pglite' ? undefined : target, target === 'pglite' ? { dataDir: `.data/bench-experiments-${process.pid}` } : {});
await migrate(db.sql, await readMigrations());
const ctx = systemContext(db, 'bench');
const tag = `bench-${Date.now().toString(36)}`;

const dataset = await createDataset(ctx, { name: tag, description: null, metadata: null });
const items = Array.from({ length: ITEMS }, (_, i) => ({
  id: `item-${i}`,
  input: { question: `question ${i}` },
  expectedOutput: `answer ${i}`,
  expectedDecisions: [{ chosen: 'route' }, { chosen: { tool: 'search' } }, { chosen: 'reply' }],
  metadata: null,
  sourceTraceId: null,
  archived: false,
}));
for (let i = 0; i < items.length; i += 1000) await upsertItems(ctx, dataset.name, items.slice(i, i + 1000));
const experiments = [await createExperiment(ctx, { dataset: dataset.name, name: 'v1', metadata: null, passCriteria: [] }), await createExperiment(ctx, { dataset: dataset.name, name: 'v2', metadata: null, passCriteria: [] })];

const t0 = Date.UTC(2026, 0, 1);
const at = (ms: number) => new Date(t0 + ms).toISOString();
const seeding = performance.now();
for (const [e, experiment] of experiments.entries()) {
  for (let from = 0; from < ITEMS; from += 100) {
    const traces = Array.from({ length: Math.min(100, ITEMS - from) }, (_, k) => {
      const i = from + k;
      const tool = e === 1 && i % 3 === 0 ? 'sql' : 'search';
      const start = i * 10_000;
      return {
        id: `${tag}-${e}-${i}`,
        name: 'bench-agent',
        status: tool === 'sql' ? 'ERROR' : 'COMPLETED',
        tags: [],
        startedAt: at(start),
        endedAt: at(start + 2000),
        totalCost: 0.001,
        spans: [{ id: 'root', name: 'agent', type: 'AGENT', status: 'COMPLETED', startedAt: at(start), endedAt: at(start + 2000), output: { answer: `answer ${i}` } }],
        decisionPoints: ['route', { tool }, 'reply'].map((chosen, d) => ({ id: `d${d}`, type: 'CUSTOM', chosen, alternatives: [], timestamp: at(start + 100 * (d + 1)) })),
        events: [],
        experiment: { id: experiment.id, itemId: `item-${i}` },
      };
    });
    const body = JSON.stringify({ traces });
    await ingestTraces(ctx, validateIngestBody(JSON.parse(body), { maxBatchTraces: 100, maxChildrenPerTrace: 1000 }));
  }
}
console.log(`seeded ${ITEMS} items, ${2 * ITEMS} runs in ${((performance.now() - seeding) / 1000).toFixed(1)} s`);

async function time(label: string, call: () => Promise<unknown>) {
  await call();
  const ms: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const started = performance.now();
    await call();
    ms.push(performance.now() - started);
  }
  ms.sort((a, b) => a - b);
  const pick = (p: number) => ms[Math.min(ms.length - 1, Math.floor(p * ms.length))].toFixed(0);
  console.log(`${label}: p50 ${pick(0.5)} ms, p95 ${pick(0.95)} ms (${RUNS} calls)`);
}
const ids = experiments.map((e) => e.id);
await time('compare, one page of 50', () => compareExperiments(ctx, ids, { onlyDifferent: false, page: 1, limit: 50 }));
await time('compare, only different', () => compareExperiments(ctx, ids, { onlyDifferent: true, page: 1, limit: 50 }));
await time('experiment summary', () => getExperiment(ctx, ids[1]));
await db.close();
