// A dataset's items: added or updated in one statement per request (all or nothing; the
// same id replaces the item, so sending a request twice changes nothing), listed in the
// order they were added.
import 'server-only';
import { randomUUID } from 'node:crypto';
import { requireScope, type ServiceContext } from '@/lib/core/context';
import { AppError } from '@/lib/core/errors';
import { sql } from '@/lib/db/sql';
import { ITEM_FIELDS } from './record';
import type { DatasetItem, DatasetItemInput } from './types';
import { checkDatasetName } from './validate';

async function datasetIdOf(db: ServiceContext['db']['sql'], name: string, lock: boolean): Promise<string> {
  const [row] = await db.query<{ id: string }>(
    sql`SELECT "id" FROM "Dataset" WHERE "name" = ${checkDatasetName(name, 'Dataset name')} ${lock ? sql`FOR UPDATE` : sql``}`,
  );
  if (!row) throw new AppError('NOT_FOUND', 'Dataset not found');
  return row.id;
}

/** Adds or replaces the items (ids generated where none was sent); returns how many. */
export async function upsertItems(ctx: ServiceContext, name: string, items: DatasetItemInput[]): Promise<number> {
  requireScope(ctx, 'curate');
  const rows = items.map((item) => ({ ...item, id: item.id ?? randomUUID() }));
  return ctx.db.sql.transaction(async (tx) => {
    // Locks the dataset row: a delete waits for this request, or this one finds it gone.
    const datasetId = await datasetIdOf(tx, name, true);
    // JSON null and absent are both stored as SQL NULL, except the input (any JSON, null included).
    const field = (name: string) => sql`NULLIF(e.v -> ${name}, 'null'::jsonb)`;
    await tx.query(sql`
      INSERT INTO "DatasetItem" ("datasetId", "id", "input", "expectedOutput", "expectedDecisions", "metadata", "sourceTraceId", "archived", "seq")
      SELECT ${datasetId}, e.v ->> 'id', e.v -> 'input', ${field('expectedOutput')}, ${field('expectedDecisions')}, ${field('metadata')},
             e.v ->> 'sourceTraceId', (e.v ->> 'archived')::boolean,
             (SELECT coalesce(max(i."seq"), 0) FROM "DatasetItem" i WHERE i."datasetId" = ${datasetId}) + e.at
        FROM jsonb_array_elements(${JSON.stringify(rows)}::jsonb) WITH ORDINALITY AS e(v, at)
      ON CONFLICT ("datasetId", "id") DO UPDATE SET
        "input" = excluded."input", "expectedOutput" = excluded."expectedOutput", "expectedDecisions" = excluded."expectedDecisions",
        "metadata" = excluded."metadata", "sourceTraceId" = excluded."sourceTraceId", "archived" = excluded."archived", "updatedAt" = now()`);
    await tx.query(sql`UPDATE "Dataset" SET "updatedAt" = now() WHERE "id" = ${datasetId}`);
    return rows.length;
  });
}

export interface DatasetItemPage {
  items: DatasetItem[];
  total: number;
  page: number;
  limit: number;
  totalPages: number;
}

/** A page of the dataset's items (archived ones too, marked), in the order they were added. */
export async function listItems(ctx: ServiceContext, name: string, { page, limit }: { page: number; limit: number }): Promise<DatasetItemPage> {
  requireScope(ctx, 'read');
  const db = ctx.db.sql;
  const datasetId = await datasetIdOf(db, name, false);
  const [{ total }] = await db.query<{ total: number }>(sql`SELECT count(*)::int AS total FROM "DatasetItem" WHERE "datasetId" = ${datasetId}`);
  const items = await db.query<DatasetItem>(sql`
    SELECT ${ITEM_FIELDS} FROM "DatasetItem" i WHERE i."datasetId" = ${datasetId}
     ORDER BY i."seq" LIMIT ${limit} OFFSET ${(page - 1) * limit}`);
  return { items, total, page, limit, totalPages: Math.ceil(total / limit) };
}
