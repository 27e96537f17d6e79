// A trace's scores placed on the trace, its spans and its decision points, as the detail
// and the export show them: a level with scores gets a `scores` array, the others no key.
import type { SqlExecutor } from '@/lib/db/executor';
import { raw, sql } from '@/lib/db/sql';
import { scoreJsonSql } from './sql';
import type { ScoreRecord } from './types';

export interface ScoresOfTrace {
  trace: ScoreRecord[];
  spans: Map<string, ScoreRecord[]>;
  decisionPoints: Map<string, ScoreRecord[]>;
}

// Oldest first on each target, as a record's history reads.
const SCORE_JSON = raw(scoreJsonSql('s'));
const scoresOfTracesSql = (traceIds: readonly string[]) => sql`
SELECT s."traceId", ${SCORE_JSON}::text AS score FROM "Score" s
 WHERE s."traceId" = ANY (${traceIds}::text[]) ORDER BY s."traceId", s."createdAt", s."id"`;

function push<K>(map: Map<K, ScoreRecord[]>, key: K, score: ScoreRecord): void {
  const list = map.get(key);
  if (list) list.push(score);
  else map.set(key, [score]);
}

/** The scores of each of these traces (traces without any are absent). */
export async function scoresOfTraces(exec: SqlExecutor, traceIds: readonly string[]): Promise<Map<string, ScoresOfTrace>> {
  const result = new Map<string, ScoresOfTrace>();
  if (traceIds.length === 0) return result;
  const rows = await exec.query<{ traceId: string; score: string }>(scoresOfTracesSql(traceIds));
  for (const row of rows) {
    const score = JSON.parse(row.score) as ScoreRecord;
    let of = result.get(row.traceId);
    if (!of) result.set(row.traceId, (of = { trace: [], spans: new Map(), decisionPoints: new Map() }));
    if (score.spanId !== null) push(of.spans, score.spanId, score);
    else if (score.decisionPointId !== null) push(of.decisionPoints, score.decisionPointId, score);
    else of.trace.push(score);
  }
  return result;
}

interface Scorable {
  id: string;
  scores?: ScoreRecord[];
}

/** Puts the scores on a parsed trace (a TraceDetail's shape), in place. */
export function attachScores(
  trace: { scores?: ScoreRecord[]; spans: Scorable[]; decisionPoints: Scorable[] },
  of: ScoresOfTrace,
): void {
  if (of.trace.length > 0) trace.scores = of.trace;
  for (const span of trace.spans) {
    const scores = of.spans.get(span.id);
    if (scores) span.scores = scores;
  }
  for (const decision of trace.decisionPoints) {
    const scores = of.decisionPoints.get(decision.id);
    if (scores) decision.scores = scores;
  }
}

/** Every score of a trace (on it, its spans and its decision points), oldest first. */
export function everyScore(of: ScoresOfTrace): ScoreRecord[] {
  const all = [...of.trace, ...[...of.spans.values()].flat(), ...[...of.decisionPoints.values()].flat()];
  return all.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
