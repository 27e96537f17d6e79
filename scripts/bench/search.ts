// Full-text search (`q`, issue 13) at scale: N traces of the issue's shape (50 spans,
// 10 decision points, 10 events) whose span inputs and outputs are 1-2 KB of the
// generator's words, seeded with COPY; a rare term planted in one span's output of a few
// traces, a common word that is in nearly every span; then GET /api/traces?q=… first
// pages, alone and with status=ERROR, at each read-client count. Also reported: the size
// of each table, of the search words ("SearchDoc") and of their trigram index (the issue
// asks for it).
//
// Seeding: COPY fires the search triggers like any insert, so every trace is queued; the
// indexer (crossroads_search_index, as the server runs it) then drains the queue, timed
// and labelled "seed", before anything is measured. What ingest pays for search is
// measured separately, by the ingest group with and without the search triggers
// (--drop-search-indexes).
import { FULL_SHAPE, traceId, type TraceShape } from './generate';
import { markdownTable } from './report';
import type { RawConn, RawDb } from './database';
import { runClosedLoop, type Task } from './http';
import type { Bounds, Ctx, ScenarioResult } from './scenarios';
import { formatLine } from './scenarios';
import { seedTraces, truncateTraces, vacuumAnalyze } from './seed';
import os from 'node:os';
import { summarize } from './stats';
import { indexSearchBacklog, searchBacklog, searchLagMs } from '@/lib/features/search';

/** The issue's trace with 1-2 KB span payloads. */
export const SEARCH_SHAPE: TraceShape = { ...FULL_SHAPE, payloadMin: 1024, payloadMax: 2048 };
/** Planted in one span output of RARE_TRACES traces, spread over the data set. */
export const RARE_TERM = 'ORD-RARE-4711';
export const RARE_TRACES = 10;
/** One of the generator's words: in nearly every span's input and output. */
export const COMMON_TERM = 'customer';
/** The search index (migration search_deferred_index): the words table's trigram index. */
export const SEARCH_INDEXES = ['SearchDoc_words_trgm_idx'];
/** The triggers that queue written traces for the search indexer. */
export const SEARCH_TRIGGERS: Array<[table: string, trigger: string]> = ['Trace', 'Span', 'DecisionPoint', 'Event'].flatMap((table) => [
  [table, `${table}_search_insert`],
  [table, `${table}_search_update`],
]);

type SeedStep = (step: string, r: { traces: number; records: number; seconds: number }) => void;

/**
 * Turns search indexing off (for the ingest comparison): drops the triggers that queue
 * written traces, so nothing is queued or indexed. Returns what was dropped.
 */
export async function dropSearchIndexes(conn: RawConn): Promise<string[]> {
  for (const [table, trigger] of SEARCH_TRIGGERS) await conn.query(`DROP TRIGGER IF EXISTS "${trigger}" ON "${table}"`);
  return SEARCH_TRIGGERS.map(([, trigger]) => trigger);
}

/** Drains the search queue with the server's indexer function (beside the server's own runs); returns the traces this call indexed. */
export async function drainSearchQueue(conn: RawConn, batch = 500): Promise<number> {
  let traces = 0;
  for (;;) {
    const run = await indexSearchBacklog(conn, Infinity, batch);
    traces += run.traces;
    if (run.drained) return traces;
    // The server's own indexer holds the partitions left: let it finish its batches.
    await new Promise((r) => setTimeout(r, 100));
  }
}

export interface SearchBacklogAfter {
  /** Traces queued when the measured window ended, and the age of the oldest entry. */
  traces: number;
  oldestMs: number;
  /** How long the server's indexer then took to drain the queue (Infinity: not within the timeout). */
  drainMs: number;
  /** Traces still queued when the wait ended (0 when drained). */
  left: number;
}

/**
 * After an ingest cell (PostgreSQL, the server running): how far the server's search
 * indexer was behind, and how long it took to catch up. Waiting also keeps one cell's
 * indexing out of the next one's window.
 */
export async function searchBacklogAfter(raw: RawDb, timeoutMs = 600_000): Promise<SearchBacklogAfter> {
  const conn = await raw.connect();
  try {
    const backlog = () => searchBacklog(conn);
    const first = await backlog();
    const started = performance.now();
    let left = first.traces;
    while (left > 0 && performance.now() - started < timeoutMs) {
      await new Promise((r) => setTimeout(r, 250));
      left = (await backlog()).traces;
    }
    return { traces: first.traces, oldestMs: first.oldestMs, drainMs: left > 0 ? Infinity : performance.now() - started, left };
  } finally {
    await conn.release();
  }
}

/**
 * Samples the search indexer's lag (the oldest queued trace's age) every `everyMs` while
 * an ingest cell runs; stop() returns the samples in ms.
 */
export async function sampleSearchLag(raw: RawDb, everyMs = 1_000): Promise<{ stop(): Promise<number[]> }> {
  const conn = await raw.connect();
  const samples: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      samples.push(await searchLagMs(conn));
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      await conn.release();
      return samples;
    },
  };
}

/** The traces the rare term is planted in: spread evenly over [0, traces). */
export function rareTraceIndexes(traces: number): number[] {
  const n = Math.min(RARE_TRACES, traces);
  return Array.from({ length: n }, (_, k) => Math.floor(((k + 0.5) * traces) / n));
}

export interface SearchSeedOptions {
  raw: RawDb;
  seed: number;
  traces: number;
  seedStep: SeedStep;
  log: (msg: string) => void;
}

/** Seeds the search data set into empty tables; returns the ids of the rare term's traces. */
export async function seedSearchData(opts: SearchSeedOptions): Promise<string[]> {
  const conn = await opts.raw.connect();
  try {
    let t = performance.now();
    await truncateTraces(opts.raw);
    opts.seedStep('search: TRUNCATE', { traces: 0, records: 0, seconds: (performance.now() - t) / 1000 });
    const r = await seedTraces(opts.raw, {
      seed: opts.seed,
      from: 0,
      to: opts.traces,
      shape: SEARCH_SHAPE,
      population: opts.traces,
      chunk: 500,
      searchQueue: true,
      onProgress: (done, total) => {
        if (done && done % 10_000 === 0) opts.log(`  seeding ${done}/${total} (${((performance.now() - t) / 1000).toFixed(0)} s)`);
      },
    });
    opts.seedStep(`search: ${opts.traces} traces, 50 spans of 1-2 KB payloads each`, r);

    // The rare term: appended to the output text of the 21st span of each chosen trace.
    t = performance.now();
    const ids = rareTraceIndexes(opts.traces).map((i) => traceId(opts.seed, i));
    let planted = 0;
    for (const id of ids) {
      const rows = await conn.query(
        `UPDATE "Span" SET "output" = jsonb_set("output", '{content}', to_jsonb(("output"->>'content') || $2))
          WHERE "id" = (SELECT "id" FROM "Span" WHERE "traceId" = $1 AND "output" ? 'content'
                         ORDER BY "startedAt", "id" OFFSET 20 LIMIT 1)
          RETURNING "id"`,
        [id, ` then confirmed order ${RARE_TERM} was refunded`],
      );
      planted += rows.length;
    }
    if (planted !== ids.length) throw new Error(`planted the rare term in ${planted} of ${ids.length} traces`);
    opts.seedStep(`search: "${RARE_TERM}" planted in one span of ${planted} traces`, { traces: planted, records: planted, seconds: (performance.now() - t) / 1000 });

    // The indexer, as the server runs it after ingest: every trace's words, trigram-indexed.
    t = performance.now();
    const indexed = await drainSearchQueue(conn);
    const seconds = (performance.now() - t) / 1000;
    opts.log(`  search indexer: ${indexed} traces in ${seconds.toFixed(1)} s (${(indexed / seconds).toFixed(0)} traces/s)`);
    opts.seedStep('search: indexer drained the queue', { traces: indexed, records: 0, seconds });
    opts.seedStep('VACUUM ANALYZE', { traces: 0, records: 0, seconds: await vacuumAnalyze(opts.raw) });
    return ids;
  } finally {
    await conn.release();
  }
}

export interface RelationSize {
  name: string;
  kind: 'table' | 'index';
  rows?: number;
  bytes: number;
}

/** Each table (heap + TOAST, without indexes) and each of its indexes, biggest first. */
export async function relationSizes(raw: RawDb): Promise<RelationSize[]> {
  const conn = await raw.connect();
  try {
    const tables = await conn.query<{ name: string; rows: number; bytes: string }>(
      `SELECT c.relname AS name, c.reltuples::bigint::float8 AS rows, pg_table_size(c.oid)::text AS bytes
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind = 'r' AND c.relname IN ('Trace', 'Span', 'DecisionPoint', 'Event', 'SearchDoc')`,
    );
    const indexes = await conn.query<{ name: string; bytes: string }>(
      `SELECT i.relname AS name, pg_relation_size(i.oid)::text AS bytes
         FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
        WHERE t.relname IN ('Trace', 'Span', 'DecisionPoint', 'Event', 'SearchDoc')`,
    );
    return [
      ...tables.map((r) => ({ name: r.name, kind: 'table' as const, rows: Number(r.rows), bytes: Number(r.bytes) })),
      ...indexes.map((r) => ({ name: r.name, kind: 'index' as const, bytes: Number(r.bytes) })),
    ].sort((a, b) => b.bytes - a.bytes);
  } finally {
    await conn.release();
  }
}

const reports: { db: string; traces: number; sizes: RelationSize[] }[] = [];

const mb = (b: number) => (b / 2 ** 20).toFixed(b < 10 * 2 ** 20 ? 1 : 0);

/** The sizes of every search run so far: tables, the words and their trigram index, and all indexes together. */
export function searchSizesTable(): string {
  const rows: string[][] = [];
  for (const r of reports) {
    const tables = r.sizes.filter((s) => s.kind === 'table' && s.name !== 'SearchDoc');
    const words = r.sizes.filter((s) => s.name === 'SearchDoc');
    const trgm = r.sizes.filter((s) => SEARCH_INDEXES.includes(s.name));
    const other = r.sizes.filter((s) => s.kind === 'index' && !SEARCH_INDEXES.includes(s.name));
    for (const s of [...tables, ...words, ...trgm]) rows.push([r.db, String(r.traces), s.name, s.rows === undefined ? '' : String(Math.round(s.rows)), mb(s.bytes)]);
    const sum = (l: RelationSize[]) => l.reduce((n, s) => n + s.bytes, 0);
    rows.push([r.db, String(r.traces), 'search words and their index', '', mb(sum(words) + sum(trgm))]);
    rows.push([r.db, String(r.traces), `the other ${other.length} indexes of these tables`, '', mb(sum(other))]);
    rows.push([r.db, String(r.traces), 'the four tables (heap + TOAST)', '', mb(sum(tables))]);
  }
  return markdownTable(['db', 'traces', 'relation', 'rows', 'MB'], rows);
}

export interface SearchCase {
  name: string;
  path: string;
  /** Checked on the first answer. */
  check: (j: { traces: { id: string }[]; total: number; totalExact?: boolean }) => string | undefined;
}

export function searchCases(rareIds: string[]): SearchCase[] {
  const q = (term: string, extra = '') => `/api/traces?q=${encodeURIComponent(term)}&page=1&limit=20${extra}`;
  return [
    {
      name: `q=${RARE_TERM} (rare, ${rareIds.length} traces)`,
      path: q(RARE_TERM),
      check: (j) => {
        const got = new Set(j.traces.map((t) => t.id));
        const missing = rareIds.filter((id) => !got.has(id)).length;
        return j.total === rareIds.length && missing === 0 ? undefined : `rare term: total ${j.total}, ${missing} of the planted traces missing`;
      },
    },
    {
      name: `q=${COMMON_TERM} (common)`,
      path: q(COMMON_TERM),
      check: (j) => (j.traces.length === 20 ? undefined : `common term: ${j.traces.length} rows on the first page`),
    },
    {
      name: `q=${RARE_TERM}&status=ERROR`,
      path: q(RARE_TERM, '&status=ERROR'),
      check: (j) => (j.total <= rareIds.length ? undefined : `rare term + ERROR: total ${j.total}`),
    },
    {
      name: `q=${COMMON_TERM}&status=ERROR`,
      path: q(COMMON_TERM, '&status=ERROR'),
      check: (j) => (j.traces.length === 20 ? undefined : `common term + ERROR: ${j.traces.length} rows on the first page`),
    },
  ];
}

async function measureCase(ctx: Ctx, c: SearchCase, clients: number, bounds: Bounds): Promise<ScenarioResult> {
  await ctx.diag?.reset();
  ctx.server.resetPeak();
  let checked = false;
  let total: string | undefined;
  const task: Task = async (_w, seq) => {
    const r = await ctx.http.request('GET', c.path);
    if (r.status !== 200) return { ok: false, ms: r.ms, error: `HTTP ${r.status} ${r.body.toString().slice(0, 200)}` };
    if (!checked && seq >= 0) {
      checked = true;
      const j = JSON.parse(r.body.toString()) as { traces: { id: string }[]; total: number; totalExact?: boolean };
      total = `total ${j.total}${j.totalExact === false ? ' (estimate)' : ''}`;
      const problem = c.check(j);
      if (problem) return { ok: false, ms: r.ms, error: problem };
    }
    return { ok: true, ms: r.ms };
  };
  const r = await runClosedLoop(task, { clients, ...bounds });
  const result: ScenarioResult = {
    db: ctx.db,
    group: 'search',
    name: c.name,
    clients,
    storedTraces: ctx.storedTraces,
    summary: summarize(r.latencies, r.wallMs, r.errors),
    serverRssMb: ctx.server.peakRss() / 2 ** 20,
    load1: os.loadavg()[0],
    note: [total, r.errors ? `first error: ${r.firstError}` : undefined].filter(Boolean).join('; ') || undefined,
  };
  if (ctx.diag) result.topStatements = await ctx.diag.top(3);
  ctx.log(`${formatLine(result)}${total ? `, ${total}` : ''}`);
  return result;
}

/**
 * Measures every search case at each client count; records the relation sizes (measured
 * by the caller with relationSizes before the server starts: on PGlite the server then
 * owns the data directory).
 */
export async function searchScenario(
  ctx: Ctx,
  opts: { sizes: RelationSize[]; rareIds: string[]; clients: number[]; bounds: Bounds },
): Promise<ScenarioResult[]> {
  const { sizes } = opts;
  reports.push({ db: ctx.db, traces: ctx.storedTraces ?? 0, sizes });
  for (const s of sizes.filter((x) => x.kind === 'table' || SEARCH_INDEXES.includes(x.name))) ctx.log(`  ${s.name}: ${mb(s.bytes)} MB`);
  const results: ScenarioResult[] = [];
  // One cold request per case first (a fresh server, the database's caches as seeding left them).
  for (const c of searchCases(opts.rareIds)) {
    const r = await ctx.http.request('GET', c.path);
    ctx.log(`  first request of ${c.name}: ${r.ms.toFixed(0)} ms (HTTP ${r.status})`);
  }
  for (const c of searchCases(opts.rareIds)) {
    for (const clients of opts.clients) results.push(await measureCase(ctx, c, clients, opts.bounds));
  }
  return results;
}
