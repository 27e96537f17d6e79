// DELETE /api/scores/{id}: an admin, a key with the delete scope, or the person who made
// the annotation.
import 'server-only';
import { AppError } from '@/lib/errors';
import { requireAnyScope, requireScope, type ServiceContext } from '@/lib/context';
import { isValidId } from '@/lib/traces/validate';

/** Deletes one score; NOT_FOUND when unknown, FORBIDDEN when it is someone else's and the caller may not delete any. */
export async function deleteScore(ctx: ServiceContext, id: string): Promise<void> {
  const { scope, actor } = requireAnyScope(ctx, ['delete', 'annotate']);
  if (!isValidId(id)) throw new AppError('VALIDATION', 'Invalid score ID');
  const sql = ctx.db.sql;
  if (scope === 'delete') {
    const deleted = await sql.query(`DELETE FROM "Score" WHERE "id" = $1 RETURNING 1`, [id]);
    if (deleted.length === 0) throw new AppError('NOT_FOUND', 'Score not found');
    return;
  }
  // Without the delete scope only a person deleting their own annotation may go on.
  if (actor.kind !== 'user') requireScope(ctx, 'delete');
  const userId = actor.kind === 'user' ? actor.userId : null;
  const deleted = await sql.query(`DELETE FROM "Score" WHERE "id" = $1 AND "authorUserId" = $2 RETURNING 1`, [id, userId]);
  if (deleted.length > 0) return;
  const exists = await sql.query(`SELECT 1 FROM "Score" WHERE "id" = $1`, [id]);
  if (exists.length === 0) throw new AppError('NOT_FOUND', 'Score not found');
  throw new AppError('FORBIDDEN', 'Only an admin, a key with the delete scope, or the person who made this score can delete it');
}
