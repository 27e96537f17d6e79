// What the search indexer costs per trace, with each way of computing a trace's words:
// stores N traces of the bench's ingest shape (50 spans of 100 B-2 KB payloads) through
// POST /api/traces's verb, then, interleaved, defines crossroads_trace_words as one
// migration or the other wrote it, queues every trace again and drains the queue as the
// server does (crossroads_search_index, batches of 50). Prints CPU ms a trace: the
// backend's (/proc) on PostgreSQL, this process's on PGlite (it runs in process).
// scripts/with-postgres.sh npx tsx --conditions=react-server scripts/bench/search-index-probe.ts [traces] [postgres|pglite]
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ingestTraces } from '@/lib/traces/ingest';
import { indexSearchBacklog } from '@/lib/traces/search-index';
import { parseIngestBody } from '@/lib/traces/validate';
import { testDatabases } from '@/test/support/databases';
import { testContext } from '@/test/support/context';
import { ingestTemplates } from './scenarios';
import { IdSource } from './rows';

const traces = Number(process.argv[2] ?? 300);
const which = process.argv[3] ?? 'postgres';
const rounds = Number(process.env.ROUNDS ?? 3);
const db = await testDatabases().find((t) => t.name === which)!.open();
const q = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => db.sql.query<T>(text, params);

/** The CREATE of crossroads_trace_words in a migration's file. */
function wordsFunction(migration: string): string {
  const text = readFileSync(path.join('prisma/migrations', migration, 'migration.sql'), 'utf8');
  const start = text.search(/CREATE (OR REPLACE )?FUNCTION "crossroads_trace_words"/);
  const end = text.indexOf('$$;', text.indexOf('$$', text.indexOf('AS $$', start) + 5)) + 3;
  return text.slice(start, end).replace(/^CREATE FUNCTION/, 'CREATE OR REPLACE FUNCTION');
}
const VARIANTS: Record<string, string> = {
  'row per word': wordsFunction('20261126000000_search_deferred_index'),
  'one sort': wordsFunction('20261204010000_search_words_in_one_sort'),
  'one sort, lowered once': wordsFunction('20261204020000_search_words_lowered_once'),
};

const [tpl] = ingestTemplates(1, 100);
const ids = new IdSource(7);
const limits = { maxBatchTraces: 1000, maxChildrenPerTrace: 10_000 };
for (let n = 0; n < traces; n += 100) {
  await ingestTraces(testContext(db), parseIngestBody(tpl.body.render(ids.next(tpl.traces)).toString(), limits));
}

let cpuMs: () => number;
if (which === 'postgres') {
  const [{ pid }] = await q<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  // utime + stime, in clock ticks of 10 ms.
  cpuMs = () => {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  };
} else {
  cpuMs = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
}

const results: Record<string, string[]> = {};
for (let round = 0; round < rounds; round++) {
  for (const [name, create] of Object.entries(VARIANTS)) {
    await db.sql.exec(create);
    await q('DELETE FROM "SearchQueue"');
    await q('INSERT INTO "SearchQueue" ("traceId") SELECT "id" FROM "Trace"');
    const cpu0 = cpuMs();
    const wall0 = performance.now();
    const run = await indexSearchBacklog(db.sql, Infinity);
    const cpu = cpuMs() - cpu0;
    const wall = performance.now() - wall0;
    (results[name] ??= []).push(`${(cpu / run.traces).toFixed(2)} (wall ${(wall / run.traces).toFixed(2)})`);
  }
}
const [{ load }] = [{ load: readFileSync('/proc/loadavg', 'utf8').split(' ')[0] }];
console.log(`${which}, ${traces} traces, load ${load}: CPU ms a trace, round by round`);
for (const [name, figures] of Object.entries(results)) console.log(`  ${name}: ${figures.join(', ')}`);
await db.close();
