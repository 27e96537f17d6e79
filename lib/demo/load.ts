import 'server-only';
import { describeActor } from '@/lib/access/decide';
import { systemContext, type ServiceContext } from '@/lib/context';
import { getLimits } from '@/lib/env';
import { saveScoresAs, validateScoresBody } from '@/lib/scores';
import type { ScoreWriter } from '@/lib/scores/author';
import { ingestTraces } from '@/lib/traces/ingest';
import { parseIngestBody } from '@/lib/traces/validate';
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
 * Stores the demo data set (lib/demo/dataset.ts), timed up to `now`, through the same
 * validation and ingest as POST /api/traces, then its reviews and scores (reviews.ts). Loading again replaces the earlier demo
 * traces, so the set is never doubled and its times move up to the present.
 */
export async function loadDemoData(ctx: ServiceContext, now = Date.now()): Promise<DemoLoadResult> {
  const actor = requireDemoScope(ctx, 'ingest');
  // The caller's right was checked above: ingest and delete run as the server's own task
  // (an admin signs in with a session, which never ingests).
  const asServer = systemContext(ctx.db, `demo data load by ${describeActor(actor)}`);
  const replaced = await removeDemoData(asServer);
  const dataset = demoTraces(now);
  const batch = parseIngestBody(JSON.stringify({ traces: dataset }), getLimits());
  const traces = await ingestTraces(asServer, batch);
  // The reviews and scores, validated as POST /api/scores validates a body; each set keeps
  // its author: a person's annotations, an evaluator key's API scores.
  for (const set of demoScores(dataset)) {
    await saveScoresAs(asServer, validateScoresBody({ scores: set.scores }), writerOf(set.author));
  }
  return { traces, replaced };
}

function writerOf(author: DemoScoreSet['author']): ScoreWriter {
  return author.kind === 'user'
    ? { source: 'ANNOTATION', authorKind: 'user', authorName: author.name, authorUserId: null }
    : { source: 'API', authorKind: 'key', authorName: author.name, authorUserId: null };
}
