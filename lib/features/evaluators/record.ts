// How evaluators are read: the select list, dates as ISO 8601 text.
import { raw, sql, type Sql } from '@/lib/db/sql';
import { isoSql } from '@/lib/db/columns';
import type { SqlExecutor } from '@/lib/db/executor';
import type { Evaluator } from './types';

/** An evaluator `e` as the API gives it, its dataset `d` joined by "datasetId". */
const EVALUATOR_FIELDS: Sql = sql`e."id", e."name", e."kind", e."config", e."scoreName",
  json_build_object('on', e."targetOn", 'dataset', d."name", 'query', e."query", 'sampleRate', e."sampleRate") AS "target",
  e."enabled", ${raw(isoSql('e."createdAt"'))} AS "createdAt", ${raw(isoSql('e."updatedAt"'))} AS "updatedAt"`;

export interface StoredEvaluator extends Evaluator {
  datasetId: string | null;
}

/** The evaluators matching `where` (over `e`), by name. */
export async function readEvaluators(db: SqlExecutor, where: Sql = sql`true`): Promise<StoredEvaluator[]> {
  return db.query<StoredEvaluator>(sql`
    SELECT ${EVALUATOR_FIELDS}, e."datasetId" FROM "Evaluator" e LEFT JOIN "Dataset" d ON d."id" = e."datasetId"
     WHERE ${where} ORDER BY e."name"`);
}

/** Without the internal dataset id. */
export function publicEvaluator({ datasetId: _datasetId, ...evaluator }: StoredEvaluator): Evaluator {
  void _datasetId;
  return evaluator;
}
