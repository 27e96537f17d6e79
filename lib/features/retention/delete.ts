// Deleting traces: one by id, a session's (the GDPR erasure case), and those past the
// retention period. A trace's decision points, spans, events and "TraceName" row go with
// it (foreign keys ON DELETE CASCADE), and so do the scores on it and its children; a
// session's own scores go in the same transaction as its last trace; the per-status counts follow through the DELETE
// trigger on "Trace" (it locks the counter rows until commit, so they stay exact under
// any concurrency), and so do the insights rollups (each batch subtracts what its traces
// added before deleting them: insights_forget, migration 20261125000000_insights_rollups);
// everything else derived (child counts, totals) lives on the trace row itself.
//
// Racing with ingest:
// - A session's batch is locked before it is deleted, in id order, the order in which an
//   OTLP upsert writes its trace rows (upsert-spans.ts), so the two cannot deadlock;
//   retention skips rows someone holds instead of waiting for them.
// - Spans that arrive for a trace while it is being deleted wait for the delete to
//   commit, then create the trace afresh with exactly those spans: a deletion removes
//   what was stored, it does not refuse what comes later.
// - Each batch is its own short transaction (lock, forget the insights, delete): ingest
//   waits at most for one batch.
//
// Every deletion is logged (who, what, how many) without any of the deleted content.
import 'server-only';
import { AppError } from '@/lib/core/errors';
import type { SqlExecutor } from '@/lib/db/executor';
import { sql, type Sql } from '@/lib/db/sql';
import { isValidId } from '@/lib/features/ingest/shared';
import { describeActor, type Actor } from '@/lib/core/access/decide';
import { requireScope, type ServiceContext } from '@/lib/core/context';

/** Traces deleted per statement (and transaction) by session and retention deletes. */
export const DELETE_BATCH_SIZE = 500;

/** Who asked, as it goes to the log: "user a@b.c", "key ci-cleanup (id)", "retention". */
const lockOneSql = (id: string) => sql`SELECT "id" FROM "Trace" WHERE "id" = ${id} FOR UPDATE`;

const lockSessionBatchSql = (sessionId: string, max: number) => sql`
SELECT "id" FROM "Trace" WHERE "sessionId" = ${sessionId} ORDER BY "id" LIMIT ${max} FOR UPDATE`;

// Oldest first through the startedAt index. SKIP LOCKED: a trace that ingest or another
// delete holds right now is left for the next batch, so retention never waits on a trace
// row (and, holding its counter locks meanwhile, never makes ingest wait behind that).
const lockExpiredBatchSql = (cutoff: Date, max: number) => sql`
SELECT "id" FROM "Trace" WHERE "startedAt" < ${cutoff.toISOString()}::timestamptz ORDER BY "startedAt" LIMIT ${max} FOR UPDATE SKIP LOCKED`;

// What the traces added to the insights rollups, subtracted in one set-based call, then the
// traces themselves (migration 20261125000000_insights_rollups: the row trigger skips the
// traces recorded here; row by row it cost ~2.4 ms a trace). A statement of its own after
// the lock, so it reads everything committed before the lock was granted.
const forgetSql = (ids: string[]) => sql`SELECT "insights_forget"(${ids}::text[])`;
const deleteLockedSql = (ids: string[]) => sql`DELETE FROM "Trace" WHERE "id" = ANY (${ids}::text[]) RETURNING "id", "sessionId"`;
// A session exists while a trace has its id: with its last trace go its own scores. A
// session score being written holds one of the session's traces (lib/features/scores/save.ts), so
// it either committed before the lock above and is seen here, or finds no trace after.
const forgetSessionScoresSql = (sessionIds: string[]) => sql`
DELETE FROM "Score" s WHERE s."sessionId" = ANY (${sessionIds}::text[])
   AND NOT EXISTS (SELECT 1 FROM "Trace" t WHERE t."sessionId" = s."sessionId")`;

/** Locks the traces `lock` selects, forgets their insights and deletes them, in one transaction; returns how many. */
async function deleteLocked(exec: SqlExecutor, lock: Sql): Promise<number> {
  return exec.transaction(async (tx) => {
    const ids = (await tx.query<{ id: string }>(lock)).map((r) => r.id);
    if (ids.length === 0) return 0;
    await tx.query(forgetSql(ids));
    const deleted = await tx.query<{ id: string; sessionId: string | null }>(deleteLockedSql(ids));
    const sessions = [...new Set(deleted.flatMap((r) => (r.sessionId === null ? [] : [r.sessionId])))];
    if (sessions.length > 0) await tx.query(forgetSessionScoresSql(sessions));
    return deleted.length;
  });
}

/** One line per deletion: who, what, how many; never names, payloads or ids beyond the one asked for. */
export function logDeletion(actor: Actor, what: string, count: number, ms: number): void {
  console.info(`[crossroads] deleted ${count} trace${count === 1 ? '' : 's'} (${what}) by ${describeActor(actor)} in ${Math.round(ms)} ms`);
}

/** A printable, bounded form of a client-supplied id for the log (ids may hold any character but controls). */
function logSafe(id: string): string {
  return JSON.stringify(id.length > 100 ? `${id.slice(0, 100)}…` : id);
}

/** Deletes one trace and everything it holds; returns 1. Unknown id: NOT_FOUND; an id that cannot exist: VALIDATION. */
export async function deleteTraceOrThrow(ctx: ServiceContext, id: string): Promise<number> {
  const actor = requireScope(ctx, 'delete');
  if (!isValidId(id)) throw new AppError('VALIDATION', 'Invalid trace ID');
  const started = performance.now();
  const deleted = await deleteLocked(ctx.db.sql, lockOneSql(id));
  if (deleted === 0) throw new AppError('NOT_FOUND', 'Trace not found');
  logDeletion(actor, `trace ${logSafe(id)}`, deleted, performance.now() - started);
  return deleted;
}

const lockIdsSql = (ids: readonly string[]) => sql`SELECT "id" FROM "Trace" WHERE "id" = ANY (${ids}::text[]) ORDER BY "id" FOR UPDATE`;

/**
 * Deletes the traces with these ids that exist, DELETE_BATCH_SIZE per transaction (locked in
 * id order, as a session's are); returns how many. `what` names them in the log.
 */
export async function deleteTracesById(ctx: ServiceContext, ids: readonly string[], what: string): Promise<number> {
  const actor = requireScope(ctx, 'delete');
  const started = performance.now();
  let count = 0;
  for (let i = 0; i < ids.length; i += DELETE_BATCH_SIZE) {
    count += await deleteLocked(ctx.db.sql, lockIdsSql(ids.slice(i, i + DELETE_BATCH_SIZE)));
  }
  logDeletion(actor, what, count, performance.now() - started);
  return count;
}

/** The sessionId of DELETE /api/traces, checked like ingest's (1-256 characters, no control characters). */
export function parseSessionIdParam(query: URLSearchParams): string {
  // A destructive call does exactly what it says: a filter it does not apply is refused,
  // not ignored (DELETE ?sessionId=s&status=ERROR must not delete the whole session).
  for (const name of new Set(query.keys())) {
    if (name !== 'sessionId') throw new AppError('VALIDATION', `Unsupported parameter ${name}: DELETE /api/traces takes only sessionId`);
  }
  const values = query.getAll('sessionId');
  if (values.length === 0 || values[0] === '') {
    throw new AppError('VALIDATION', 'Missing sessionId parameter: DELETE /api/traces deletes the traces of one session (?sessionId=...)');
  }
  if (values.length > 1) throw new AppError('VALIDATION', 'Invalid sessionId parameter: give one session');
  if (!isValidId(values[0])) {
    throw new AppError('VALIDATION', 'Invalid sessionId parameter: 1 to 256 characters, no control characters');
  }
  return values[0];
}

/**
 * Deletes every trace of a session, DELETE_BATCH_SIZE per transaction; returns how many.
 * A session without traces is 0, not an error: erasure is idempotent.
 */
export async function deleteSessionTraces(ctx: ServiceContext, sessionId: string): Promise<number> {
  const actor = requireScope(ctx, 'delete');
  const started = performance.now();
  let count = 0;
  for (;;) {
    const n = await deleteLocked(ctx.db.sql, lockSessionBatchSql(sessionId, DELETE_BATCH_SIZE));
    count += n;
    if (n < DELETE_BATCH_SIZE) break;
  }
  logDeletion(actor, `session ${logSafe(sessionId)}`, count, performance.now() - started);
  return count;
}

/** One retention batch: deletes up to `max` traces that started before `cutoff`; returns how many. */
export async function deleteExpiredBatch(exec: SqlExecutor, cutoff: Date, max = DELETE_BATCH_SIZE): Promise<number> {
  return deleteLocked(exec, lockExpiredBatchSql(cutoff, max));
}

/**
 * Deletes every trace that started before `cutoff`, in batches of DELETE_BATCH_SIZE (each
 * statement its own transaction), until a batch comes back short; logs the total when
 * anything went. Traces held by ingest during a batch are left for the next run.
 */
export async function deleteExpiredTraces(ctx: ServiceContext, cutoff: Date, batchSize = DELETE_BATCH_SIZE): Promise<number> {
  const actor = requireScope(ctx, 'delete');
  const started = performance.now();
  let count = 0;
  for (;;) {
    const n = await deleteExpiredBatch(ctx.db.sql, cutoff, batchSize);
    count += n;
    if (n < batchSize) break;
  }
  if (count > 0) {
    logDeletion(actor, `started before ${cutoff.toISOString()}`, count, performance.now() - started);
  }
  return count;
}
