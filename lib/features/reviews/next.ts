// The review queue (POST /api/review/next): the next decision point nobody has reviewed
// (no `decision.correct` score) matching the filters, held for the asking reviewer for
// HOLD_MINUTES so that several reviewers never get the same item at once. Asking again
// while the hold lasts gives the same item back; `skip` releases items and leaves them out.
//
// The hold is one upsert whose conflict branch only takes over an expired hold or one's
// own: two reviewers racing for one item serialise on its row, and the loser's upsert
// returns nothing, so it moves on to the next candidate.
import 'server-only';
import { parseJsonBody } from '@/lib/core/validate';
import { actorKey, type Actor } from '@/lib/core/access/decide';
import { AppError } from '@/lib/core/errors';
import { requireScope, type ServiceContext } from '@/lib/core/context';
import { optionLabelSql } from '@/lib/features/query';
import { optionLabel } from '@/lib/features/insights/shared';
import { queryWithoutJit } from '@/lib/db/no-jit';
import { edgeCteSql, rollupPlan, rollupRowsSql } from '@/lib/features/insights';
import type { DecisionType, JsonValue, RunStatus } from '@/lib/features/traces/shared';
import type { ReviewFilters } from './params';
import type { SqlExecutor } from '@/lib/db/executor';
import { join, raw, sql, type Sql } from '@/lib/db/sql';

export const HOLD_MINUTES = 5;
/** Candidates tried per call before giving up (each lost to another reviewer's hold). */
const CANDIDATES = 20;
/** Unreviewed decision points up to which the queue reads them all rather than walking traces. */
const FEW_LEFT = 2_000;
/** Items a call may skip. */
export const MAX_SKIPS = 1_000;

export interface ReviewKey {
  traceId: string;
  decisionPointId: string;
}

export interface ReviewItem {
  traceId: string;
  decisionPointId: string;
  type: DecisionType;
  reasoning: string | null;
  chosen: JsonValue;
  chosenLabel: string;
  alternatives: JsonValue[];
  alternativeLabels: string[];
  timestamp: string;
  parentSpanId: string | null;
  trace: { name: string; status: RunStatus; startedAt: string; sessionId: string | null };
  /** Until when the item is this reviewer's. */
  heldUntil: string;
}

export interface ReviewNext {
  item: ReviewItem | null;
  /** Decision points matching the filters, and how many of them are reviewed ("N of M reviewed"). */
  progress: { reviewed: number; total: number };
}

/** Who holds items: one identity per person or key (open mode has one reviewer). */
export function reviewerOf(actor: Actor): string {
  return actorKey(actor);
}

/** A `skip` body: `{"skip": [{"traceId", "decisionPointId"}]}` (the body may be empty). */
export function parseSkips(text: string): ReviewKey[] {
  if (text.trim() === '') return [];
  const body = parseJsonBody(text);
  const skip = (body as { skip?: unknown } | null)?.skip;
  if (skip === undefined) return [];
  if (!Array.isArray(skip)) throw new AppError('VALIDATION', 'skip must be an array');
  if (skip.length > MAX_SKIPS) throw new AppError('VALIDATION', `skip has ${skip.length} entries: at most ${MAX_SKIPS} are allowed`);
  return skip.map((k: unknown, i) => {
    const key = k as Partial<ReviewKey> | null;
    if (typeof key?.traceId !== 'string' || typeof key.decisionPointId !== 'string') {
      throw new AppError('VALIDATION', `skip[${i}] must be {"traceId", "decisionPointId"} with string values`);
    }
    return { traceId: key.traceId, decisionPointId: key.decisionPointId };
  });
}

function matchSql(f: ReviewFilters): Sql {
  const conditions: Sql[] = [sql`TRUE`];
  if (f.type) conditions.push(sql`d."type" = CAST(${f.type} AS "DecisionType")`);
  if (f.option !== undefined) conditions.push(sql`${optionLabelSql(raw('d."chosen"'))} = ${f.option}`);
  if (f.name !== undefined) conditions.push(sql`t."name" = ${f.name}`);
  if (f.status) conditions.push(sql`t."status" = CAST(${f.status} AS "RunStatus")`);
  if (f.from) conditions.push(sql`t."startedAt" >= CAST(${f.from} AS timestamptz)`);
  if (f.to) conditions.push(sql`t."startedAt" < CAST(${f.to} AS timestamptz)`);
  return join(conditions, ' AND ');
}

// The marker the Score triggers keep on each decision point (migration review_marker):
// how many decision.correct scores it has. Unreviewed ones are a partial index.
const unreviewedSql = sql`d."reviews" = 0`;

// A walk that stops after a few rows: parallel workers each walk their own share of the
// traces and the merge waits for all of them, several times the serial walk's work.
async function withoutParallelWorkers<T>(db: SqlExecutor, statement: Sql): Promise<T[]> {
  return db.transaction(async (tx) => {
    await tx.query(sql`SELECT set_config('max_parallel_workers_per_gather', '0', true)`);
    return tx.query<T>(statement);
  });
}

const holdSql = (traceId: string, decisionPointId: string, reviewer: string) => sql`
INSERT INTO "ReviewHold" ("traceId", "decisionPointId", "reviewer", "heldUntil")
VALUES (${traceId}, ${decisionPointId}, ${reviewer}, CURRENT_TIMESTAMP + make_interval(mins => ${raw(String(HOLD_MINUTES))}))
ON CONFLICT ("traceId", "decisionPointId") DO UPDATE SET "reviewer" = EXCLUDED."reviewer", "heldUntil" = EXCLUDED."heldUntil"
 WHERE "ReviewHold"."heldUntil" <= CURRENT_TIMESTAMP OR "ReviewHold"."reviewer" = EXCLUDED."reviewer"
RETURNING to_char("heldUntil" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "heldUntil"`;

/**
 * The reviewer's next item (held for them), or null when none is left; with the filters' progress.
 * An item is read data (reasoning, options, the trace's name and session) and its hold a
 * write: the caller needs read, then annotate (a key: read and ingest).
 */
export async function nextReview(ctx: ServiceContext, filters: ReviewFilters, skip: readonly ReviewKey[] = []): Promise<ReviewNext> {
  requireScope(ctx, 'read');
  const actor = requireScope(ctx, 'annotate');
  const reviewer = reviewerOf(actor);
  const db = ctx.db.sql;
  const skipTraces = skip.map((k) => k.traceId);
  const skipIds = skip.map((k) => k.decisionPointId);
  if (skip.length > 0) {
    await db.query(
      sql`DELETE FROM "ReviewHold" h USING unnest(${skipTraces}::text[], ${skipIds}::text[]) AS k(t, i)
        WHERE h."reviewer" = ${reviewer} AND h."traceId" = k.t AND h."decisionPointId" = k.i`,
    );
  }
  const notSkipped = sql`NOT EXISTS (SELECT 1 FROM unnest(${skipTraces}::text[], ${skipIds}::text[]) AS k(t, i) WHERE k.t = d."traceId" AND k.i = d."id")`;
  const notHeld = sql`NOT EXISTS (SELECT 1 FROM "ReviewHold" h WHERE h."traceId" = d."traceId" AND h."decisionPointId" = d."id"
                                           AND h."heldUntil" > CURRENT_TIMESTAMP AND h."reviewer" <> ${reviewer})`;
  const order = sql`ORDER BY t."startedAt" DESC, d."timestamp", d."traceId", d."id" LIMIT ${CANDIDATES}`;
  // Own live hold first (at most one), then the newest traces' unreviewed decisions that
  // nobody else holds, one of two ways chosen in the statement by how many are left: up to
  // FEW_LEFT, all of them are read from the partial index, their traces probed by key (the
  // OFFSET 0 keeps the planner from hashing every trace of the window) and sorted; beyond
  // it, the traces are walked newest first probing the partial index per trace, which finds
  // CANDIDATES quickly while unreviewed decisions are common. A walk alone, once few are
  // left, crosses every trace of a window or filter that none of them match.
  const rows = await withoutParallelWorkers<ReviewKey & { own: boolean }>(
    db,
    sql`
    WITH "left" AS MATERIALIZED (
      SELECT d."traceId", d."id", d."type", d."chosen", d."timestamp", d."reviews" FROM "DecisionPoint" d WHERE ${unreviewedSql} LIMIT ${FEW_LEFT + 1})
    SELECT * FROM (
      SELECT d."traceId", d."id" AS "decisionPointId", true AS own
        FROM "ReviewHold" h JOIN "DecisionPoint" d ON d."traceId" = h."traceId" AND d."id" = h."decisionPointId"
        JOIN "Trace" t ON t."id" = d."traceId"
       WHERE h."reviewer" = ${reviewer} AND h."heldUntil" > CURRENT_TIMESTAMP AND ${unreviewedSql} AND ${matchSql(filters)} AND ${notSkipped}
       ${order}) o
    UNION ALL
    SELECT * FROM (
      SELECT d."traceId", d."id" AS "decisionPointId", false AS own
        FROM "left" d CROSS JOIN LATERAL (SELECT t0."startedAt", t0."name", t0."status" FROM "Trace" t0 WHERE t0."id" = d."traceId" OFFSET 0) t
       WHERE (SELECT count(*) FROM "left") <= ${FEW_LEFT} AND ${unreviewedSql} AND ${matchSql(filters)} AND ${notSkipped} AND ${notHeld}
       ${order}) f
    UNION ALL
    SELECT * FROM (
      SELECT d."traceId", d."id" AS "decisionPointId", false AS own
        FROM "Trace" t JOIN "DecisionPoint" d ON d."traceId" = t."id"
       WHERE (SELECT count(*) FROM "left") > ${FEW_LEFT} AND ${unreviewedSql} AND ${matchSql(filters)} AND ${notSkipped} AND ${notHeld}
       ${order}) n`,
  );
  const own = rows.filter((k) => k.own);
  const seen = new Set(own.map((k) => `${k.traceId}\u0000${k.decisionPointId}`));
  const candidates = [...own, ...rows.filter((k) => !k.own && !seen.has(`${k.traceId}\u0000${k.decisionPointId}`))];
  let item: ReviewItem | null = null;
  for (const candidate of candidates) {
    const [held] = await db.query<{ heldUntil: string }>(holdSql(candidate.traceId, candidate.decisionPointId, reviewer));
    if (!held) continue;
    // One item per reviewer: taking this one lets go of any other.
    await db.query(
      sql`DELETE FROM "ReviewHold" WHERE "reviewer" = ${reviewer} AND NOT ("traceId" = ${candidate.traceId} AND "decisionPointId" = ${candidate.decisionPointId})`,
    );
    item = await loadItem(ctx, candidate, held.heldUntil);
    if (item) break;
  }
  const { reviewed, total } = await progressOf(ctx, filters);
  return { item, progress: { reviewed, total } };
}

// The window of a queue without from/to: all of history, whole hours at both ends.
const EARLIEST = '0001-01-01T00:00:00.000Z';
const LATEST = '9999-01-01T00:00:00.000Z';

/**
 * "N of M reviewed": from the insights rollups (decision points per type or chosen label,
 * and the review rollup's reviewed decision points), with the partial edge hours from
 * their traces; from the decision points themselves when a name filter or a window
 * without a whole hour leaves the rollups out (rollups.ts).
 */
async function progressOf(ctx: ServiceContext, f: ReviewFilters): Promise<ReviewNext['progress']> {
  const db = ctx.db.sql;
  const plan = rollupPlan({ from: f.from ?? EARLIEST, to: f.to ?? LATEST, ...(f.name !== undefined ? { name: f.name } : {}), status: f.status });
  if (!plan) {
    const [row] = await db.query<{ reviewed: number; total: number }>(sql`
      SELECT (count(*) FILTER (WHERE d."reviews" > 0))::int AS reviewed, count(*)::int AS total
        FROM "DecisionPoint" d JOIN "Trace" t ON t."id" = d."traceId" WHERE ${matchSql(f)}`);
    return row;
  }
  const conditions: Sql[] = [sql`TRUE`];
  if (f.type) conditions.push(sql`r."type" = CAST(${f.type} AS "DecisionType")`);
  if (f.option !== undefined) conditions.push(sql`r."label" = ${f.option}`);
  const where = join(conditions, ' AND ');
  const total =
    f.option === undefined
      ? sql`SELECT sum("decisions") FROM ${rollupRowsSql('InsightsTypeHour', plan)} r WHERE ${where}`
      : sql`SELECT sum("chosen") FROM ${rollupRowsSql('InsightsOptionHour', plan)} r WHERE ${where}`;
  const [row] = await queryWithoutJit<{ reviewed: number; total: number }>(db, sql`
    WITH ${edgeCteSql(plan)}
    SELECT coalesce((SELECT sum("decisions") FROM ${rollupRowsSql('InsightsReviewHour', plan)} r WHERE ${where}), 0)::int AS reviewed,
           coalesce((${total}), 0)::int AS total`);
  return row;
}

async function loadItem(ctx: ServiceContext, key: ReviewKey, heldUntil: string): Promise<ReviewItem | null> {
  const [row] = await ctx.db.sql.query<{
    traceId: string;
    id: string;
    type: DecisionType;
    reasoning: string | null;
    chosen: JsonValue;
    alternatives: JsonValue;
    timestamp: Date;
    parentSpanId: string | null;
    traceName: string;
    traceStatus: RunStatus;
    traceStartedAt: Date;
    traceSessionId: string | null;
  }>(sql`
    SELECT d."traceId", d."id", d."type", d."reasoning", d."chosen", d."alternatives", d."timestamp", d."parentSpanId",
      t."name" AS "traceName", t."status" AS "traceStatus", t."startedAt" AS "traceStartedAt", t."sessionId" AS "traceSessionId"
    FROM "DecisionPoint" d JOIN "Trace" t ON t."id" = d."traceId"
    WHERE d."traceId" = ${key.traceId} AND d."id" = ${key.decisionPointId}`);
  // Deleted since it was picked: the caller tries the next.
  if (!row) return null;
  const alternatives = (Array.isArray(row.alternatives) ? row.alternatives : []) as JsonValue[];
  const chosen = (row.chosen ?? null) as JsonValue;
  return {
    traceId: row.traceId,
    decisionPointId: row.id,
    type: row.type,
    reasoning: row.reasoning,
    chosen,
    chosenLabel: optionLabel(chosen),
    alternatives,
    alternativeLabels: alternatives.map((a) => optionLabel(a)),
    timestamp: row.timestamp.toISOString(),
    parentSpanId: row.parentSpanId,
    trace: { name: row.traceName, status: row.traceStatus, startedAt: row.traceStartedAt.toISOString(), sessionId: row.traceSessionId },
    heldUntil,
  };
}
