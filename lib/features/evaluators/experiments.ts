// "Run evaluators" on an experiment: every run of it queued for every enabled evaluator of
// its dataset; runs already evaluated by one keep their score (one per evaluator and run).
import 'server-only';
import { requireScope, type ServiceContext } from '@/lib/core/context';
import { AppError } from '@/lib/core/errors';
import { sql } from '@/lib/db/sql';
import { queueExperimentRuns } from './queue';

export async function evaluateExperiment(ctx: ServiceContext, experimentId: string): Promise<{ queued: number; evaluators: number }> {
  requireScope(ctx, 'curate');
  const [found] = await ctx.db.sql.query(sql`SELECT 1 FROM "Experiment" WHERE "id" = ${experimentId}`);
  if (!found) throw new AppError('NOT_FOUND', 'Experiment not found');
  return queueExperimentRuns(ctx.db.sql, experimentId);
}
