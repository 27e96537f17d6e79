// The SQL every way in and out of scores shares: the row a write sends (a JSON array of
// these, read with json_to_recordset, so a batch of 1,000 is one statement), the upsert
// by id, and the JSON object of a stored score, built by the database like the trace detail.
import { randomUUID } from 'node:crypto';
import { empty, raw, sql, type Sql } from '@/lib/db/sql';
import type { ScoreWriter } from './author';
import type { ScoreInput } from './validate';

export interface ScoreRow {
  id: string;
  traceId: string | null;
  spanId: string | null;
  decisionPointId: string | null;
  sessionId: string | null;
  name: string;
  dataType: string;
  value: number | null;
  stringValue: string | null;
  comment: string | null;
  metadata: unknown;
  source: string;
  authorKind: string;
  authorName: string;
  authorUserId: string | null;
  authorKey: string | null;
}

const COLUMNS: ReadonlyArray<readonly [keyof ScoreRow, string]> = [
  ['id', 'text'],
  ['traceId', 'text'],
  ['spanId', 'text'],
  ['decisionPointId', 'text'],
  ['sessionId', 'text'],
  ['name', 'text'],
  ['dataType', '"ScoreDataType"'],
  ['value', 'float8'],
  ['stringValue', 'text'],
  ['comment', 'text'],
  ['metadata', 'jsonb'],
  ['source', '"ScoreSource"'],
  ['authorKind', 'text'],
  ['authorName', 'text'],
  ['authorUserId', 'text'],
  ['authorKey', 'text'],
];

/** The stored row of a validated score written by `writer`; a score without a client id gets a new one. */
export function scoreRow(input: ScoreInput, writer: ScoreWriter): ScoreRow {
  const { target, value } = input;
  return {
    id: input.id ?? randomUUID(),
    traceId: target.kind === 'session' ? null : target.traceId,
    spanId: target.kind === 'span' ? target.spanId : null,
    decisionPointId: target.kind === 'decision' ? target.decisionPointId : null,
    sessionId: target.kind === 'session' ? target.sessionId : null,
    name: input.name,
    dataType: input.dataType,
    value: typeof value === 'number' ? value : typeof value === 'boolean' ? (value ? 1 : 0) : null,
    stringValue: typeof value === 'string' ? value : null,
    comment: input.comment,
    metadata: input.metadata,
    ...writer,
  };
}

const NAMES = COLUMNS.map(([name]) => `"${name}"`).join(', ');
const RECORD = COLUMNS.map(([name, type]) => `"${name}" ${type}`).join(', ');
const UPDATES = COLUMNS.filter(([name]) => name !== 'id')
  .map(([name]) => `"${name}" = EXCLUDED."${name}"`)
  .join(', ');

// A stored score keeps its target; by default only its own author rewrites it. The rules
// are checked before writing with messages (rewrite.ts); this holds them for every writer
// and race: a row refused here is left as it was.
const SAME_TARGET = ['traceId', 'spanId', 'decisionPointId', 'sessionId']
  .map((name) => `"Score"."${name}" IS NOT DISTINCT FROM EXCLUDED."${name}"`)
  .join(' AND ');

const INSERT = raw(`INSERT INTO "Score" (${NAMES})
  SELECT ${NAMES} FROM json_to_recordset(`);
const UPSERT = raw(`::json) AS r(${RECORD})
  ON CONFLICT ("id") DO UPDATE SET ${UPDATES}, "updatedAt" = CURRENT_TIMESTAMP
  WHERE ${SAME_TARGET}`);
const SAME_AUTHOR = raw(` AND "Score"."authorKey" IS NOT DISTINCT FROM EXCLUDED."authorKey"`);

/**
 * Upserts the score rows of `rows` (a JSON array of ScoreRow, as text): a known id is
 * updated in place (the same score, written again), never stored twice; createdAt stays,
 * updatedAt moves. Only a score of the same target, and of the same author unless
 * `anyAuthor`, is updated.
 */
export function upsertScoresSql(rows: unknown, { anyAuthor = false } = {}): Sql {
  return sql`${INSERT}${rows}${UPSERT}${anyAuthor ? empty : SAME_AUTHOR}`;
}

const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The JSON object of a stored score (alias `s`), in the API's field order. */
export function scoreJsonSql(s = 's'): string {
  return `json_build_object('id', ${s}."id", 'traceId', ${s}."traceId", 'spanId', ${s}."spanId",
    'decisionPointId', ${s}."decisionPointId", 'sessionId', ${s}."sessionId", 'name', ${s}."name",
    'value', CASE ${s}."dataType" WHEN 'NUMERIC' THEN to_json(${s}."value") WHEN 'BOOLEAN' THEN to_json(${s}."value" <> 0)
                 ELSE to_json(${s}."stringValue") END,
    'dataType', ${s}."dataType", 'comment', ${s}."comment", 'source', ${s}."source",
    'author', json_build_object('kind', ${s}."authorKind", 'name', ${s}."authorName"),
    'metadata', ${s}."metadata", 'createdAt', ${iso(`${s}."createdAt"`)}, 'updatedAt', ${iso(`${s}."updatedAt"`)})`;
}

/** The order scores are listed in: newest first, id breaking ties. */
export const SCORE_ORDER = `"createdAt" DESC, "id" DESC`;
