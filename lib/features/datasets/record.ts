// How datasets and items are read: the select lists, dates as ISO 8601 text.
import { raw, sql, type Sql } from '@/lib/db/sql';
import { isoSql } from '@/lib/db/columns';

/** A dataset `d`'s fields, with its count of items not archived. */
export const DATASET_FIELDS: Sql = sql`d."id", d."name", d."description", d."metadata",
  (SELECT count(*)::int FROM "DatasetItem" i WHERE i."datasetId" = d."id" AND NOT i."archived") AS "itemCount",
  ${raw(isoSql('d."createdAt"'))} AS "createdAt", ${raw(isoSql('d."updatedAt"'))} AS "updatedAt"`;

/** An item `i`'s fields as the API gives them. */
export const ITEM_FIELDS: Sql = sql`i."id", i."input", i."expectedOutput", i."expectedDecisions", i."metadata", i."sourceTraceId", i."archived",
  ${raw(isoSql('i."createdAt"'))} AS "createdAt", ${raw(isoSql('i."updatedAt"'))} AS "updatedAt"`;
