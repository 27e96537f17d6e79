// What a JSON batch costs with its traces' search words written in its statement, against
// queueing the traces and draining the queue as the server's indexer does: CPU of this
// process (parse, validate, rows and words) and of the whole PostgreSQL cluster (/proc),
// per trace, for batches of the bench's agent runs, the two ways interleaved. The queued
// way is forced by one payload number written "1.50" (JavaScript prints 1.5), the other way
// gets "1.5": otherwise the same batches.
// scripts/with-postgres.sh npx tsx --conditions=react-server scripts/bench/ingest-words-probe.ts [batches] [rounds]
import { ingestTraces } from '@/lib/traces/ingest';
import { indexSearchBacklog } from '@/lib/traces/search-index';
import { parseIngestBody } from '@/lib/traces/validate';
import { testDatabases } from '@/test/support/databases';
import { testContext } from '@/test/support/context';
import { ingestTemplates } from './scenarios';
import { IdSource } from './rows';
import { treeCpuMs, postmasterPid } from './cpu';

const batches = Number(process.argv[2] ?? 4);
const rounds = Number(process.argv[3] ?? 3);
const db = await testDatabases().find((t) => t.name === 'postgres')!.open();
const [{ dir }] = await db.sql.query<{ dir: string }>(`SELECT current_setting('data_directory') AS dir`);
const postmaster = postmasterPid(dir)!;
const pgMs = () => treeCpuMs(postmaster);
const nodeMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const [tpl] = ingestTemplates(1, 100);
const ids = new IdSource(11);
const limits = { maxBatchTraces: 1000, maxChildrenPerTrace: 10_000 };
const body = (number: string) => tpl.body.render(ids.next(tpl.traces)).toString().replace('"metadata":{', `"metadata":{"q":${number},`);

// Warm-up: both statements prepared, caches filled.
for (const n of ['1.50', '1.5']) await ingestTraces(testContext(db), parseIngestBody(body(n), limits));
await indexSearchBacklog(db.sql);

const results: Record<string, string[]> = { queued: [], 'words at ingest': [] };
for (let round = 0; round < rounds; round++) {
  for (const [name, number] of [['queued', '1.50'], ['words at ingest', '1.5']] as const) {
    const texts = Array.from({ length: batches }, () => body(number));
    const n0 = nodeMs();
    const p0 = pgMs();
    const w0 = performance.now();
    for (const text of texts) await ingestTraces(testContext(db), parseIngestBody(text, limits));
    const node = nodeMs() - n0;
    const pgIngest = pgMs() - p0;
    const wall = performance.now() - w0;
    const p1 = pgMs();
    const indexed = await indexSearchBacklog(db.sql);
    const pgIndex = pgMs() - p1;
    const traces = batches * tpl.traces;
    const per = (ms: number) => (ms / traces).toFixed(2);
    results[name].push(
      `node ${per(node)} + db ingest ${per(pgIngest)} + db indexer ${per(pgIndex)} (${indexed.traces} traces) = ${per(node + pgIngest + pgIndex)} ms a trace; ingest wall ${per(wall)}`,
    );
  }
}
const load = (await import('node:fs')).readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
console.log(`${batches} batches of ${tpl.traces} traces a round, load ${load}: CPU ms a trace`);
for (const [name, figures] of Object.entries(results)) for (const f of figures) console.log(`  ${name}: ${f}`);
await db.close();
