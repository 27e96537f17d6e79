// POST /api/views: saves the caller's view under its name; a name they already use is
// replaced (its id kept), so "save" twice never makes two views of one name.
import 'server-only';
import { randomUUID } from 'node:crypto';
import { AppError } from '@/lib/core/errors';
import { requireScope, type ServiceContext } from '@/lib/core/context';
import { sql } from '@/lib/db/sql';
import { VIEW_LIMITS } from './limits';
import { viewOwner } from './owner';
import { toSavedView, VIEW_COLUMNS } from './record';
import type { SavedView, SaveViewInput } from './types';

export async function saveView(ctx: ServiceContext, input: SaveViewInput): Promise<{ view: SavedView; created: boolean }> {
  const actor = requireScope(ctx, 'read');
  const owner = viewOwner(actor);
  return ctx.db.sql.transaction(async (tx) => {
    // Serialises one owner's saves: two cannot both pass the count below the limit, nor both insert one name.
    await tx.query(sql`SELECT pg_advisory_xact_lock(hashtext(${`saved-view:${owner}`}))`);
    const [existing] = await tx.query<{ id: string }>(sql`SELECT "id" FROM "SavedView" WHERE "owner" = ${owner} AND "name" = ${input.name}`);
    if (existing) {
      const [row] = await tx.query<SavedView>(sql`
        UPDATE "SavedView" SET "query" = ${input.query}, "columns" = ${input.columns}::text[], "updatedAt" = ${new Date()}
        WHERE "id" = ${existing.id} RETURNING ${VIEW_COLUMNS}`);
      return { view: toSavedView(row), created: false };
    }
    const [{ count }] = await tx.query<{ count: number }>(sql`SELECT count(*)::int AS "count" FROM "SavedView" WHERE "owner" = ${owner}`);
    if (count >= VIEW_LIMITS.perOwner) {
      throw new AppError('VALIDATION', `Too many views: at most ${VIEW_LIMITS.perOwner} each; delete one first`);
    }
    const [row] = await tx.query<SavedView>(sql`
      INSERT INTO "SavedView" ("id", "owner", "name", "query", "columns")
      VALUES (${randomUUID()}, ${owner}, ${input.name}, ${input.query}, ${input.columns}::text[])
      RETURNING ${VIEW_COLUMNS}`);
    return { view: toSavedView(row), created: true };
  });
}
