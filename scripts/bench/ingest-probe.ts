// Where PostgreSQL spends a JSON batch's time: EXPLAIN ANALYZE of the ingest statement
// (per-node and per-trigger times) for batches of the bench's agent runs.
// scripts/with-postgres.sh npx tsx --conditions=react-server scripts/bench/ingest-probe.ts [batch]
import { isSql } from '@/lib/db/sql';
import { ingestTraces } from '@/lib/features/ingest';
import { parseIngestBody } from '@/lib/features/ingest/shared';
import { testDatabases } from '@/test/support/databases';
import { testContext } from '@/test/support/context';
import type { SqlExecutor } from '@/lib/db/executor';
import { ingestTemplates } from './scenarios';
import { IdSource } from './rows';

const batch = Number(process.argv[2] ?? 100);
const target = testDatabases().find((t) => t.name === 'postgres')!;
const db = await target.open();
const [tpl] = ingestTemplates(1, batch);
const ids = new IdSource(7);
const limits = { maxBatchTraces: 1000, maxChildrenPerTrace: 10_000 };
for (let run = 0; run < 4; run++) {
  const body = tpl.body.render(ids.next(tpl.traces)).toString();
  const parsed = parseIngestBody(body, limits);
  const sql: SqlExecutor = {
    ...db.sql,
    async query(statement, params, options) {
      const { text, values } = isSql(statement) ? statement : { text: statement, values: (params as unknown[] | undefined) ?? [] };
      if (!text.trimStart().startsWith('WITH') || run === 0) return db.sql.query(statement, params, options);
      const plan = await db.sql.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${text}`, values);
      console.log(plan.map((r) => r['QUERY PLAN']).filter((l) => /Trigger|Execution|Planning|Insert on|CTE Scan|Function Scan|temp/.test(l)).join('\n'));
      return Array.from({ length: batch }, () => ({ stored: 1 })) as never;
    },
  };
  const started = performance.now();
  await ingestTraces(testContext({ ...db, sql }), parsed);
  console.log(`run ${run}: ${(performance.now() - started).toFixed(0)} ms, ${(body.length / 1e6).toFixed(1)} MB`);
}
await db.close();
