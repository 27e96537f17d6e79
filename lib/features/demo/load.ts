import 'server-only';
import { describeActor } from '@/lib/core/access/decide';
import { systemContext, type ServiceContext } from '@/lib/core/context';
import { AppError, isAppError } from '@/lib/core/errors';
import { saveScoresAs, validateScoresBody } from '@/lib/features/scores';
import type { ScoreWriter } from '@/lib/features/scores/shared';
import { withinTransaction } from '@/lib/db/executor';
import { ingestTraces } from '@/lib/features/ingest';
import { parseIngestBody } from '@/lib/features/ingest/shared';
import { requireDemoScope } from './access';
import { demoTraces } from './dataset';
import { removeDemoData } from './remove';
import { demoScores, type DemoScoreSet } from './reviews';

export interface DemoLoadResult {
  /** Demo traces stored now. */
  traces: number;
  /** Demo traces of an earlier load, replaced. */
  replaced: number;
}

/**
 * Stores the demo data set (lib/features/demo/dataset.ts), timed up to `now`, through the same
 * validation and ingest as POST /api/traces, then its reviews and scores (reviews.ts).
 * Loading again replaces the earlier demo traces, so the set is never doubled and its
 * times move up to the present. All or nothing, as a JSON batch: removing the earlier load,
 * the traces and their scores commit together. A score config of this server that the
 * demo's scores do not fit (say `tone` with other categories) refuses the load: CONFLICT.
 */
export async function loadDemoData(ctx: ServiceContext, now = Date.now()): Promise<DemoLoadResult> {
  const actor = requireDemoScope(ctx, 'ingest');
  const dataset = demoTraces(now);
  const batch = parseIngestBody(JSON.stringify({ traces: dataset }), ctx.config.limits);
  // Each set keeps its author: a person's annotations, an evaluator key's API scores.
  const sets = demoScores(dataset).map((set) => ({ scores: validateScoresBody({ scores: set.scores }), writer: writerOf(set.author) }));
  const task = `demo data load by ${describeActor(actor)}`;
  return ctx.db.sql.transaction(async (tx) => {
    // The caller's right was checked above: delete and ingest run as the server's own task
    // (an admin signs in with a session, which never ingests).
    const asServer = systemContext({ ...ctx.db, sql: withinTransaction(tx) }, task);
    const replaced = await removeDemoData(asServer);
    const traces = await ingestTraces(asServer, batch);
    for (const set of sets) await fitConfigs(() => saveScoresAs(asServer, set.scores, set.writer));
    return { traces, replaced };
  });
}

/** A demo score that does not fit a config is no fault of the request (it has no body): the server's state conflicts. */
async function fitConfigs<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (!isAppError(err) || err.code !== 'VALIDATION') throw err;
    throw new AppError('CONFLICT', `The demo data does not fit this server's score configs: ${err.message}; change or remove that config to load it`);
  }
}

function writerOf(author: DemoScoreSet['author']): ScoreWriter {
  return author.kind === 'user'
    ? { source: 'ANNOTATION', authorKind: 'user', authorName: author.name, authorUserId: null, authorKey: null }
    : { source: 'API', authorKind: 'key', authorName: author.name, authorUserId: null, authorKey: null };
}
