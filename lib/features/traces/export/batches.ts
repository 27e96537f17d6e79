// The traces an export holds, read in batches: keyset pagination on the list's order
// (startedAt DESC, id DESC, served by the index of that shape), a fixed number of rows per
// statement, through the shared filter SQL so every list filter applies unchanged.
//
// Not a snapshot: each batch is its own statement (a transaction held for a whole export
// would pin a pool connection and, on PGlite, the only connection, for minutes). A trace
// ingested meanwhile appears if it sorts after the cursor; one deleted meanwhile is
// skipped; no trace appears twice, because the cursor only moves forward.
import 'server-only';
import { isAppError } from '@/lib/core/errors';
import { requireScope, type ServiceContext } from '@/lib/core/context';
import type { Database } from '@/lib/db';
import { getTraceJsonOrThrow } from '@/lib/features/traces/detail';
import { traceWhereSql } from '@/lib/features/query';
import { LIST_COLUMNS, toListItem, type ListRow } from '@/lib/features/query';
import { probeMatchingTraceIds } from '@/lib/features/search';
import type { TraceFilterParams, TraceListItem } from '@/lib/features/traces/types';
import { childrenJson, oneLine } from './children-sql';
import { empty, join, sql, type Sql } from '@/lib/db/sql';

/** List rows per statement: ~0.5 MB of rows in memory at a time. */
export const EXPORT_BATCH_SIZE = 500;

/**
 * Children (decision points, spans and events) loaded by one statement with
 * `include=children`. A trace with more is read alone, as GET /api/traces/{id} reads it
 * (large ones in two halves, under that route's budget of large builds at once).
 */
export const CHILDREN_PER_STATEMENT = 2_000;

export interface BatchOptions {
  /** Once aborted (the client went away), no further statement runs and the batches end. */
  signal?: AbortSignal;
  /** Rows per statement; tests only. */
  batchSize?: number;
  /** The search probe's cap (lib/features/search/search.ts); tests only, to take the common-term path on small data. */
  probeCap?: number;
}

/**
 * The full-text filter `q` as the list finds a page of it: when the term is rare, the
 * words index gives every matching trace id up front (lib/features/search/search.ts), and the
 * batches read those; a common term is tested trace by trace as the walk meets them,
 * which a common term satisfies quickly. Other filters go through the shared SQL as is.
 */
async function searchScope(db: Pick<Database, 'sql'>, filters: TraceFilterParams, probeCap?: number): Promise<{ where: Sql; ids: string[] | null }> {
  if (filters.q === undefined) return { where: traceWhereSql(filters), ids: null };
  const ids = await probeMatchingTraceIds(db.sql, filters.q, probeCap);
  if (ids === null) return { where: traceWhereSql(filters), ids: null };
  const rest: TraceFilterParams = { ...filters };
  delete rest.q;
  return { where: traceWhereSql(rest), ids };
}

/** The list rows of every trace matching the filters, in the list's order, in batches of at most `batchSize`. */
export async function* listRowBatches(ctx: ServiceContext, filters: TraceFilterParams, options: BatchOptions = {}): AsyncGenerator<TraceListItem[]> {
  requireScope(ctx, 'read');
  const db = ctx.db;
  const size = options.batchSize ?? EXPORT_BATCH_SIZE;
  const { where, ids } = await searchScope(db, filters, options.probeCap);
  if (ids !== null && ids.length === 0) return;
  let after: { startedAt: Date; id: string } | null = null;
  for (;;) {
    if (options.signal?.aborted) return;
    // The filters' WHERE goes in as the list builds it, inside a subquery, so the cursor
    // condition never depends on how the filter SQL is parenthesised; PostgreSQL pulls a
    // plain subquery up into the outer query, so the plan is that of one WHERE.
    const outer: Sql[] = [];
    if (after) outer.push(sql`(t."startedAt", t."id") < (${after.startedAt}, ${after.id})`);
    if (ids) outer.push(sql`t."id" = ANY(${ids})`);
    const rows: ListRow[] = await db.sql.query<ListRow>(sql`
      SELECT * FROM (SELECT ${LIST_COLUMNS} FROM "Trace" t ${where}) t
      ${outer.length ? sql`WHERE ${join(outer, ' AND ')}` : empty}
      ORDER BY t."startedAt" DESC, t."id" DESC LIMIT ${size}`);
    if (rows.length > 0) {
      const last = rows[rows.length - 1];
      after = { startedAt: last.startedAt, id: last.id };
      yield rows.map(toListItem);
    }
    if (rows.length < size) return;
  }
}

/** Consecutive runs of rows whose children fit one statement; a trace over the budget is a run of its own. */
function childRuns(rows: TraceListItem[]): TraceListItem[][] {
  const runs: TraceListItem[][] = [];
  let run: TraceListItem[] = [];
  let children = 0;
  for (const row of rows) {
    const n = row._count.decisionPoints + row._count.spans + row._count.events;
    if (run.length > 0 && children + n > CHILDREN_PER_STATEMENT) {
      runs.push(run);
      run = [];
      children = 0;
    }
    run.push(row);
    children += n;
  }
  if (run.length > 0) runs.push(run);
  return runs;
}

/**
 * Every matching trace as the JSON text of GET /api/traces/{id}'s `trace` (on one line),
 * in the list's order, in batches. Children are read by one statement per run of traces
 * that together hold at most CHILDREN_PER_STATEMENT of them, so memory holds one run.
 */
export async function* detailBatches(ctx: ServiceContext, filters: TraceFilterParams, options: BatchOptions = {}): AsyncGenerator<string[]> {
  requireScope(ctx, 'read');
  for await (const rows of listRowBatches(ctx, filters, options)) {
    for (const run of childRuns(rows)) {
      if (options.signal?.aborted) return;
      const single = run.length === 1 && run[0]._count.decisionPoints + run[0]._count.spans + run[0]._count.events > CHILDREN_PER_STATEMENT;
      const texts = single ? await largeTrace(ctx, run[0].id) : await childrenJson(ctx.db.sql, run.map((r) => r.id));
      // A trace deleted since its row was read is left out.
      const lines = run.map((r) => texts.get(r.id)).filter((t): t is string => t !== undefined);
      if (lines.length > 0) yield lines;
    }
  }
}

async function largeTrace(ctx: ServiceContext, id: string): Promise<Map<string, string>> {
  try {
    return new Map([[id, oneLine(await getTraceJsonOrThrow(ctx, id))]]);
  } catch (err) {
    if (isAppError(err) && err.code === 'NOT_FOUND') return new Map();
    throw err;
  }
}

