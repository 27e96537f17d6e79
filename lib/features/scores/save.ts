// Writes scores through POST /api/scores (and SOAP's SCORE): all of a request or none, in
// one transaction. Every target must be stored (a 404 naming the first that is not), every
// score must fit its name's config (a 400), then one upsert writes them.
//
// Racing with deletes: the targets' traces are locked FOR SHARE, which a trace delete's FOR
// UPDATE waits for and is waited for by. A score either commits before the delete locks its
// trace, and goes with it, or looks after the delete has committed and finds no target
// (404): no score outlives its trace. A session's score locks one of the session's traces
// the same way (its own scores go with its last trace).
//
// FOR SHARE, not the foreign key's FOR KEY SHARE: a trace update (OTLP moving its status or
// start) waits for it too, so the score rollups' triggers key each score by its trace's
// hour and status as they stay until commit (migration 20261203010000_score_rollups). The
// traces of scores rewritten by id are locked as well: an update may move a score off them.
import 'server-only';
import { AppError } from '@/lib/core/errors';
import { requireScope, type ServiceContext } from '@/lib/core/context';
import type { SqlExecutor } from '@/lib/db/executor';
import { empty, raw, sql, type Sql } from '@/lib/db/sql';
import { apiWriter, type ScoreWriter } from './author';
import { readConfigsByName } from './configs/read';
import { checkRewrites, REWRITE_RULE, rewritesAnyScore } from './rewrite';
import { scoreJsonSql, scoreRow, upsertScoresSql } from './sql';
import type { ScoreRecord } from './types';
import { checkScoresFitConfigs, type ScoreInput } from './validate';

const notFound = (message: string): never => {
  throw new AppError('NOT_FOUND', message);
};

// The target trace ids are sent twice (once per place the statement reads them).
const lockTracesSql = (traceIds: string[], ids: string[]) => sql`
SELECT "id", "id" = ANY (${traceIds}::text[]) AS target FROM "Trace"
 WHERE "id" = ANY (ARRAY(SELECT unnest(${traceIds}::text[]) UNION SELECT s."traceId" FROM "Score" s WHERE s."id" = ANY (${ids}::text[])))
 ORDER BY "id" FOR SHARE`;
const spansSql = (traceIds: string[], spanIds: string[]) => sql`
SELECT s."traceId", s."id" FROM unnest(${traceIds}::text[], ${spanIds}::text[]) AS p(t, i)
  JOIN "Span" s ON s."traceId" = p.t AND s."id" = p.i`;
const decisionsSql = (traceIds: string[], decisionIds: string[]) => sql`
SELECT d."traceId", d."id" FROM unnest(${traceIds}::text[], ${decisionIds}::text[]) AS p(t, i)
  JOIN "DecisionPoint" d ON d."traceId" = p.t AND d."id" = p.i`;
// One trace of each session, locked as a trace target is.
const lockSessionsSql = (sessionIds: string[]) => sql`
SELECT u.s AS "sessionId" FROM unnest(${sessionIds}::text[]) AS u(s)
  CROSS JOIN LATERAL (SELECT 1 FROM "Trace" t WHERE t."sessionId" = u.s LIMIT 1 FOR KEY SHARE) x`;

const RETURNING_SCORE = sql` RETURNING ${raw(scoreJsonSql('"Score"'))}::text AS score`;

const pairKey = (traceId: string, id: string) => `${traceId}\u0000${id}`;

/** Checks that every target is stored, locking their traces until the transaction ends; NOT_FOUND names the first that is not. */
export async function lockTargets(tx: SqlExecutor, scores: readonly ScoreInput[]): Promise<void> {
  const traceIds = [...new Set(scores.flatMap((s) => (s.target.kind === 'session' ? [] : [s.target.traceId])))].sort();
  const ids = scores.flatMap((s) => (s.id === null ? [] : [s.id]));
  if (traceIds.length > 0 || ids.length > 0) {
    const rows = await tx.query<{ id: string; target: boolean }>(lockTracesSql(traceIds, ids));
    const found = new Set(rows.filter((r) => r.target).map((r) => r.id));
    for (const s of scores) {
      if (s.target.kind !== 'session' && !found.has(s.target.traceId)) notFound(`${s.path}.traceId: trace "${s.target.traceId}" not found`);
    }
  }
  const spans = scores.flatMap((s) => (s.target.kind === 'span' ? [s.target] : []));
  if (spans.length > 0) {
    const rows = await tx.query<{ traceId: string; id: string }>(spansSql(spans.map((t) => t.traceId), spans.map((t) => t.spanId)));
    const found = new Set(rows.map((r) => pairKey(r.traceId, r.id)));
    for (const s of scores) {
      if (s.target.kind === 'span' && !found.has(pairKey(s.target.traceId, s.target.spanId))) {
        notFound(`${s.path}.spanId: span "${s.target.spanId}" not found in trace "${s.target.traceId}"`);
      }
    }
  }
  const decisions = scores.flatMap((s) => (s.target.kind === 'decision' ? [s.target] : []));
  if (decisions.length > 0) {
    const rows = await tx.query<{ traceId: string; id: string }>(
      decisionsSql(
        decisions.map((t) => t.traceId),
        decisions.map((t) => t.decisionPointId),
      ),
    );
    const found = new Set(rows.map((r) => pairKey(r.traceId, r.id)));
    for (const s of scores) {
      if (s.target.kind === 'decision' && !found.has(pairKey(s.target.traceId, s.target.decisionPointId))) {
        notFound(`${s.path}.decisionPointId: decision point "${s.target.decisionPointId}" not found in trace "${s.target.traceId}"`);
      }
    }
  }
  const sessions = [...new Set(scores.flatMap((s) => (s.target.kind === 'session' ? [s.target.sessionId] : [])))].sort();
  if (sessions.length > 0) {
    const found = new Set((await tx.query<{ sessionId: string }>(lockSessionsSql(sessions))).map((r) => r.sessionId));
    for (const s of scores) {
      if (s.target.kind === 'session' && !found.has(s.target.sessionId)) {
        notFound(`${s.path}.sessionId: session "${s.target.sessionId}" not found (no stored trace has it)`);
      }
    }
  }
}

/** Stores the scores (created, or updated by id), all or none; returns how many. Keys need ingest; any signed-in person may annotate. */
export async function saveScores(ctx: ServiceContext, scores: readonly ScoreInput[]): Promise<number> {
  await store(ctx, scores, empty);
  return scores.length;
}

/** Stores one score as saveScores does and answers it as stored (SOAP's SCORE answers with the record it wrote). */
export async function saveScore(ctx: ServiceContext, score: ScoreInput): Promise<ScoreRecord> {
  const [row] = await store(ctx, [score], RETURNING_SCORE);
  return JSON.parse(row.score) as ScoreRecord;
}

/**
 * Stores scores as saveScores does, with a writer the caller names (the demo data's
 * reviewers, the evaluators); needs ingest, and no route exposes it: clients never pick an
 * author. `within` runs in the same transaction after the scores are written (an evaluator
 * marks its work done with them: both or neither).
 */
export async function saveScoresAs(ctx: ServiceContext, scores: readonly ScoreInput[], writer: ScoreWriter, within?: (tx: SqlExecutor) => Promise<void>): Promise<number> {
  return saveScoreGroupsAs(ctx, [{ scores, writer }], within);
}

/** saveScoresAs for several writers' scores at once: one transaction, one upsert. */
export async function saveScoreGroupsAs(ctx: ServiceContext, groups: ReadonlyArray<{ scores: readonly ScoreInput[]; writer: ScoreWriter }>, within?: (tx: SqlExecutor) => Promise<void>): Promise<number> {
  requireScope(ctx, 'ingest');
  await write(ctx, groups, empty, within);
  return groups.reduce((n, g) => n + g.scores.length, 0);
}

async function store(ctx: ServiceContext, scores: readonly ScoreInput[], returning: Sql): Promise<Array<{ score: string }>> {
  const actor = requireScope(ctx, 'annotate');
  return write(ctx, [{ scores, writer: apiWriter(actor, ctx.principal) }], returning);
}

async function write(
  ctx: ServiceContext,
  groups: ReadonlyArray<{ scores: readonly ScoreInput[]; writer: ScoreWriter }>,
  returning: Sql,
  within?: (tx: SqlExecutor) => Promise<void>,
): Promise<Array<{ score: string }>> {
  const scores = groups.flatMap((g) => g.scores);
  const configs = await readConfigsByName(ctx.db.sql, scores.map((s) => s.name));
  checkScoresFitConfigs(scores, configs);
  const rows = JSON.stringify(groups.flatMap((g) => g.scores.map((s) => scoreRow(s, g.writer))));
  const anyAuthor = rewritesAnyScore(ctx);
  return ctx.db.sql.transaction(async (tx) => {
    await lockTargets(tx, scores);
    for (const g of groups) await checkRewrites(tx, g.scores, { authorKey: g.writer.authorKey, anyAuthor, rule: REWRITE_RULE }, true);
    const written = await tx.query<{ score: string }>(sql`${upsertScoresSql(rows, { anyAuthor })}${returning}`);
    if (within) await within(tx);
    return written;
  });
}
