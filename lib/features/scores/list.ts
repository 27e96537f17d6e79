// GET /api/scores: scores newest first (createdAt desc, then id), filtered and paged like
// the trace list (its page/limit rules and messages). Every filter has an index in that
// order (prisma/schema.prisma, model Score).
import 'server-only';
import { AppError } from '@/lib/core/errors';
import { requireScope, type ServiceContext } from '@/lib/core/context';
import { dateParam, enumParam, invalidParam, textParam } from '@/lib/features/query';
import { parsePageParams } from '@/lib/features/query';
import { SCORE_ORDER, scoreJsonSql } from './sql';
import { SCORE_DATA_TYPES, SCORE_SOURCES, type ScoreDataType, type ScoreList, type ScoreRecord, type ScoreSource } from './types';
import { empty, join, raw, sql, type Sql } from '@/lib/db/sql';

export interface ScoreListParams {
  page: number;
  limit: number;
  traceId?: string;
  spanId?: string;
  decisionPointId?: string;
  /** The session's own scores and those on its traces, spans and decision points. */
  sessionId?: string;
  name?: string;
  source?: ScoreSource;
  dataType?: ScoreDataType;
  /** Inclusive bounds on the numeric value (BOOLEAN reads as 1 or 0; CATEGORICAL has none). */
  minValue?: number;
  maxValue?: number;
  /** ISO 8601 UTC bounds on createdAt: from inclusive, to exclusive. */
  from?: string;
  to?: string;
}

function numberParam(query: Pick<URLSearchParams, 'get'>, name: string): number | undefined {
  const raw = query.get(name);
  if (raw === null || raw.trim() === '') return undefined;
  const value = Number(raw.trim());
  if (!Number.isFinite(value)) throw invalidParam(name, 'must be a number');
  return value;
}

export function parseScoreListParams(query: URLSearchParams): ScoreListParams {
  const params: ScoreListParams = parsePageParams(query);
  for (const name of ['traceId', 'spanId', 'decisionPointId', 'sessionId', 'name'] as const) {
    const value = textParam(query, name);
    if (value !== undefined) params[name] = value;
  }
  const source = enumParam<ScoreSource>(query, 'source', SCORE_SOURCES);
  if (source) params.source = source;
  const dataType = enumParam<ScoreDataType>(query, 'dataType', SCORE_DATA_TYPES);
  if (dataType) params.dataType = dataType;
  for (const name of ['minValue', 'maxValue'] as const) {
    const value = numberParam(query, name);
    if (value !== undefined) params[name] = value;
  }
  for (const name of ['from', 'to'] as const) {
    const value = dateParam(query, name);
    if (value !== undefined) params[name] = value;
  }
  if (params.minValue !== undefined && params.maxValue !== undefined && params.minValue > params.maxValue) {
    throw new AppError('VALIDATION', 'Invalid minValue parameter: must not be greater than maxValue');
  }
  return params;
}

function whereSql(p: ScoreListParams): Sql {
  const conditions: Sql[] = [];
  if (p.traceId !== undefined) conditions.push(sql`s."traceId" = ${p.traceId}`);
  if (p.spanId !== undefined) conditions.push(sql`s."spanId" = ${p.spanId}`);
  if (p.decisionPointId !== undefined) conditions.push(sql`s."decisionPointId" = ${p.decisionPointId}`);
  if (p.sessionId !== undefined) {
    // Two index scans (the session's own scores; its traces' by traceId) rather than an OR over one.
    conditions.push(sql`s."id" IN (
      SELECT "id" FROM "Score" WHERE "sessionId" = ${p.sessionId}
      UNION ALL
      SELECT x."id" FROM "Trace" t JOIN "Score" x ON x."traceId" = t."id" WHERE t."sessionId" = ${p.sessionId})`);
  }
  if (p.name !== undefined) conditions.push(sql`s."name" = ${p.name}`);
  if (p.source !== undefined) conditions.push(sql`s."source" = CAST(${p.source} AS "ScoreSource")`);
  if (p.dataType !== undefined) conditions.push(sql`s."dataType" = CAST(${p.dataType} AS "ScoreDataType")`);
  if (p.minValue !== undefined) conditions.push(sql`s."value" >= ${p.minValue}`);
  if (p.maxValue !== undefined) conditions.push(sql`s."value" <= ${p.maxValue}`);
  if (p.from !== undefined) conditions.push(sql`s."createdAt" >= CAST(${p.from} AS timestamptz)`);
  if (p.to !== undefined) conditions.push(sql`s."createdAt" < CAST(${p.to} AS timestamptz)`);
  return conditions.length ? sql`WHERE ${join(conditions, ' AND ')}` : empty;
}

export async function listScores(ctx: ServiceContext, params: ScoreListParams): Promise<ScoreList> {
  requireScope(ctx, 'read');
  const db = ctx.db.sql;
  const where = whereSql(params);
  const offset = (params.page - 1) * params.limit;
  const [rows, [{ n }]] = await Promise.all([
    db.query<{ score: ScoreRecord }>(sql`SELECT ${raw(scoreJsonSql('s'))} AS score FROM "Score" s ${where}
      ORDER BY ${raw(SCORE_ORDER.replaceAll('"createdAt"', 's."createdAt"').replaceAll('"id"', 's."id"'))}
      LIMIT ${params.limit} OFFSET ${offset}`),
    db.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM "Score" s ${where}`),
  ]);
  return {
    scores: rows.map((r) => r.score),
    total: n,
    page: params.page,
    limit: params.limit,
    totalPages: Math.ceil(n / params.limit),
  };
}
