// DELETE /api/scores/{id}: an admin, a key with the delete scope, or the person who made
// the annotation. The score's trace is locked FOR SHARE first, as score writes lock it
// (save.ts), so the score rollups' trigger subtracts it under the trace's hour and status
// as they stay until commit.
import 'server-only';
import { AppError } from '@/lib/core/errors';
import { requireAnyScope, requireScope, type ServiceContext } from '@/lib/core/context';
import { isValidId } from '@/lib/features/ingest/shared';
import { sql } from '@/lib/db/sql';

const lockTraceSql = (id: string) => sql`SELECT 1 FROM "Trace" t WHERE t."id" = (SELECT s."traceId" FROM "Score" s WHERE s."id" = ${id}) FOR SHARE`;

/** Deletes one score; NOT_FOUND when unknown, FORBIDDEN when it is someone else's and the caller may not delete any. */
export async function deleteScore(ctx: ServiceContext, id: string): Promise<void> {
  const { scope, actor } = requireAnyScope(ctx, ['delete', 'annotate']);
  if (!isValidId(id)) throw new AppError('VALIDATION', 'Invalid score ID');
  const userId = actor.kind === 'user' ? actor.userId : null;
  const deleted = await ctx.db.sql.transaction(async (tx) => {
    await tx.query(lockTraceSql(id));
    if (scope === 'delete') return tx.query(sql`DELETE FROM "Score" WHERE "id" = ${id} RETURNING 1`);
    // Without the delete scope only a person deleting their own annotation may go on.
    if (actor.kind !== 'user') requireScope(ctx, 'delete');
    return tx.query(sql`DELETE FROM "Score" WHERE "id" = ${id} AND "authorUserId" = ${userId} RETURNING 1`);
  });
  if (deleted.length > 0) return;
  const exists = await ctx.db.sql.query(sql`SELECT 1 FROM "Score" WHERE "id" = ${id}`);
  if (exists.length === 0 || scope === 'delete') throw new AppError('NOT_FOUND', 'Score not found');
  throw new AppError('FORBIDDEN', 'Only an admin, a key with the delete scope, or the person who made this score can delete it');
}
