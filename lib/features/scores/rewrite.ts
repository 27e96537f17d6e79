// A score given again by id is an update of the stored one: it keeps its target (trace,
// span, decision point or session), and only its author, an admin or a key with the delete
// scope may make it (the delete rule; mayRewrite in author.ts). Checked before a write,
// with a message naming the score: 409 for another target, 403 for another's score.
import 'server-only';
import { AppError, isAppError } from '@/lib/core/errors';
import { requireScope, type ServiceContext } from '@/lib/core/context';
import type { SqlExecutor } from '@/lib/db/executor';
import { empty, raw, sql } from '@/lib/db/sql';
import { mayRewrite } from './author';
import type { ScoreTarget } from './validate';

interface Stored {
  id: string;
  traceId: string | null;
  spanId: string | null;
  decisionPointId: string | null;
  sessionId: string | null;
  authorKey: string | null;
}

/** A score a request gives with its own id. */
export interface Rewrite {
  id: string | null;
  target: ScoreTarget;
  path: string;
}

/** Whether the caller may rewrite anyone's score: whoever may delete any (the access decision's `delete`). */
export function rewritesAnyScore(ctx: ServiceContext): boolean {
  try {
    requireScope(ctx, 'delete');
    return true;
  } catch (err) {
    if (isAppError(err)) return false;
    throw err;
  }
}

function describe(s: Omit<Stored, 'id' | 'authorKey'>): string {
  if (s.sessionId !== null) return `session "${s.sessionId}"`;
  if (s.spanId !== null) return `span "${s.spanId}" of trace "${s.traceId}"`;
  if (s.decisionPointId !== null) return `decision point "${s.decisionPointId}" of trace "${s.traceId}"`;
  return `trace "${s.traceId}"`;
}

function columnsOf(target: ScoreTarget): Omit<Stored, 'id' | 'authorKey'> {
  return {
    traceId: target.kind === 'session' ? null : target.traceId,
    spanId: target.kind === 'span' ? target.spanId : null,
    decisionPointId: target.kind === 'decision' ? target.decisionPointId : null,
    sessionId: target.kind === 'session' ? target.sessionId : null,
  };
}

const FOR_UPDATE = raw(' ORDER BY "id" FOR UPDATE');

/**
 * Refuses the first score that would move a stored one to another target (CONFLICT) or
 * rewrite another author's (FORBIDDEN). `lock`: hold the stored rows until the transaction
 * ends, so they cannot change between this check and the write.
 */
export async function checkRewrites(
  exec: SqlExecutor,
  scores: readonly Rewrite[],
  writer: { authorKey: string | null; anyAuthor: boolean; rule: string },
  lock = false,
): Promise<void> {
  const ids = scores.flatMap((s) => (s.id === null ? [] : [s.id]));
  if (ids.length === 0) return;
  const rows = await exec.query<Stored>(
    sql`SELECT "id", "traceId", "spanId", "decisionPointId", "sessionId", "authorKey" FROM "Score" WHERE "id" = ANY (${ids}::text[])${lock ? FOR_UPDATE : empty}`,
  );
  if (rows.length === 0) return;
  const stored = new Map(rows.map((r) => [r.id, r]));
  for (const score of scores) {
    const was = score.id === null ? undefined : stored.get(score.id);
    if (!was) continue;
    const now = columnsOf(score.target);
    if (now.traceId !== was.traceId || now.spanId !== was.spanId || now.decisionPointId !== was.decisionPointId || now.sessionId !== was.sessionId) {
      throw new AppError('CONFLICT', `${score.path}.id "${score.id}" is a score of ${describe(was)}: a score never changes its target; give this one another id`);
    }
    if (!mayRewrite(was.authorKey, writer.authorKey, writer.anyAuthor)) {
      throw new AppError('FORBIDDEN', `${score.path}.id "${score.id}" is another author's score: ${writer.rule}`);
    }
  }
}

/** The rule POST /api/scores and SOAP's SCORE follow: the delete rule. */
export const REWRITE_RULE = 'only its author, an admin or a key with the delete scope may change it';
/** The rule of a trace batch (JSON or OTLP): the data a key sends never rewrites another's. */
export const BATCH_REWRITE_RULE = 'a trace batch only updates its own key\'s scores (others change through POST /api/scores)';
