// "Try on a trace": an evaluator (saved or being written) run on one trace and shown, never
// stored. Setting evaluators up is configuration, so is trying one (the judge costs money).
import 'server-only';
import { requireScope, type ServiceContext } from '@/lib/core/context';
import { AppError } from '@/lib/core/errors';
import { targetDatasetId } from './evaluators';
import { evaluateWithoutJudge } from './evaluate';
import { factsFor, traceRuns } from './facts';
import { JudgeError, judgeRun } from './judge';
import { traceTrajectory } from './trajectory';
import type { EvaluationResult, EvaluatorInput } from './types';
import { parseJudgeConfig } from './validate';

export interface TryResult {
  /** null: nothing to judge (said in `note`). */
  result: EvaluationResult | null;
  note: string | null;
}

export async function tryEvaluator(ctx: ServiceContext, input: Pick<EvaluatorInput, 'kind' | 'config' | 'target'>, traceId: string): Promise<TryResult> {
  requireScope(ctx, 'configure');
  const db = ctx.db.sql;
  const run = (await traceRuns(db, [traceId])).get(traceId);
  if (!run) throw new AppError('NOT_FOUND', `trace "${traceId}" not found`);
  const facts = factsFor(run, await targetDatasetId(db, input.target));
  if (input.kind !== 'llm_judge') {
    const result = evaluateWithoutJudge(input.kind, input.config, facts);
    return { result, note: result ? null : 'Nothing to judge: the run has no expectation or figure this evaluator compares.' };
  }
  const endpoint = ctx.config.evaluatorConfig.judge;
  if (!endpoint) throw new AppError('VALIDATION', 'kind llm_judge needs the judge configured on the server: JUDGE_BASE_URL and JUDGE_MODEL (docs/evaluation.md)');
  const config = parseJudgeConfig(input.config);
  const trajectory = config.prompt.includes('trajectory') ? await traceTrajectory(db, traceId, config.maxTrajectoryChars) : '';
  try {
    return { result: await judgeRun(endpoint, ctx.config.modelPrices, config, facts, trajectory), note: null };
  } catch (err) {
    if (err instanceof JudgeError) throw new AppError('UNAVAILABLE', err.message);
    throw err;
  }
}
