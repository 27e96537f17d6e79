// Trace filters: parsed once from query parameters and turned into SQL once, for every
// verb that selects traces (the list, insights, and later export), so a filter means the
// same thing everywhere and a drill-down from an aggregate lands on exactly its traces.
//
// They live with the traces they select. The `chosen` filter compares a decision's
// chosen label, whose SQL is lib/features/query/label-sql.ts: labels are an insights concept
// that the list borrows, not the other way round.
import { AppError } from '@/lib/core/errors';
import { optionLabelSql } from '@/lib/features/query/label-sql';
import { MAX_LABEL_CHARS } from '@/lib/features/insights/shared';
import { PATH_ID_PATTERN } from '@/lib/features/paths/shared';
import { MAX_SCORE_FILTERS, parseScoreCondition, SCORE_FILTER_PREFIX, scoreNumber } from '@/lib/features/scores/shared';
import { SCORE_LIMITS } from '@/lib/features/scores/shared';
import { DECISION_BETTER_OPTION, DECISION_CORRECT } from '@/lib/features/scores/shared';
import { tracePathIsSql, traceThroughForkSql } from '@/lib/features/query/path-sql';
import { escapeLike } from '@/lib/features/query/like';
import { MAX_QUERY_CHARS, traceMatchesSql } from '@/lib/features/query/search-sql';
import { DECISION_TYPES, JUDGED_VALUES, RUN_STATUSES, TIME_RANGE_KEYS, TIME_RANGES, type DecisionType, type Judged, type RunStatus, type TimeRange, type TraceFilterParams } from '@/lib/features/traces/shared';
import { parseIsoDateTime } from '@/lib/features/ingest/shared';
import { empty, join, raw, sql, type Sql } from '@/lib/db/sql';

export type TraceFilterName = keyof TraceFilterParams;

/**
 * Every filter, in the order the list checks them: the spec's (status, search, sessionId)
 * first. The list's totals take fast paths only when they know every filter is absent.
 */
export const TRACE_FILTER_NAMES = [
  'status',
  'search',
  'sessionId',
  'userId',
  'name',
  'model',
  'tag',
  'from',
  'to',
  'range',
  'decisionType',
  'chosen',
  'q',
  'minDurationMs',
  'maxDurationMs',
  'minCost',
  'maxCost',
  'hasErrors',
  'metadata',
  'path',
  'fork',
  'reviewed',
  'judged',
  'better',
  'score',
] as const satisfies readonly TraceFilterName[];
// A filter added to TraceFilterParams but not to the list above fails to compile here.
const allNamed: Record<Exclude<TraceFilterName, (typeof TRACE_FILTER_NAMES)[number]>, never> = {};
void allNamed;

/** What the filters are read from: URL query parameters, or an adapter's own arguments made into them. */
export type FilterQuery = Pick<URLSearchParams, 'get' | 'getAll' | 'keys'>;
type Query = FilterQuery;

/** `metadata.<key>=<value>` parameters: at most this many, keys at most MAX_METADATA_KEY_CHARS. */
export const MAX_METADATA_FILTERS = 20;
export const MAX_METADATA_KEY_CHARS = 200;
const METADATA_PREFIX = 'metadata.';

export function invalidParam(name: string, why: string): AppError {
  return new AppError('VALIDATION', `Invalid ${name} parameter: ${why}`);
}

/** A non-empty text parameter; empty means absent, as for every filter of the list. */
export function textParam(query: Query, name: string): string | undefined {
  const value = query.get(name);
  if (value === null || value === '') return undefined;
  // PostgreSQL text cannot hold NUL: refused here rather than failing in the database.
  if (value.includes('\u0000')) throw invalidParam(name, 'must not contain a NUL character');
  return value;
}

/** One of `allowed`, or absent when empty; anything else is a VALIDATION error naming the parameter. */
export function enumParam<T extends string>(query: Pick<Query, 'get'>, name: string, allowed: readonly T[]): T | undefined {
  const value = query.get(name);
  if (value === null || value === '') return undefined;
  if (!(allowed as readonly string[]).includes(value)) throw invalidParam(name, `must be one of ${allowed.join(', ')}`);
  return value as T;
}

/** An ISO 8601 date-time read as ingest reads dates; normalised to UTC with milliseconds. */
export function dateParam(query: Query, name: string): string | undefined {
  const raw = query.get(name);
  if (raw === null || raw.trim() === '') return undefined;
  // An unencoded "+02:00" offset arrives as " 02:00" (a + in a query is a space).
  const value = raw.trim().replace(/(\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?) (\d{2}(?::?\d{2})?)$/, '$1+$2');
  const date = parseIsoDateTime(value);
  if (!date) throw invalidParam(name, 'must be an ISO 8601 date-time (e.g. 2026-01-02T03:04:05.000Z)');
  return date.toISOString();
}

/** A non-negative decimal number ("12", "0.5", "1e3"); empty means absent. */
function numberParam(query: Query, name: string): number | undefined {
  const raw = query.get(name);
  if (raw === null || raw.trim() === '') return undefined;
  const value = Number(raw.trim());
  if (!Number.isFinite(value) || value < 0) throw invalidParam(name, 'must be a non-negative number');
  return value;
}

function textLimited(query: Query, name: string, maxChars: number): string | undefined {
  const value = textParam(query, name);
  if (value !== undefined && Array.from(value).length > maxChars) throw invalidParam(name, `must be at most ${maxChars} characters`);
  return value;
}

/** Every `metadata.<key>` parameter; a key given twice must hold both values (so never matches). */
function metadataParams(query: Query): Record<string, string> | undefined {
  const entries: Record<string, string> = {};
  let count = 0;
  for (const param of new Set(query.keys())) {
    if (!param.startsWith(METADATA_PREFIX)) continue;
    const key = param.slice(METADATA_PREFIX.length);
    if (key === '') throw invalidParam(param, 'needs a key after "metadata." (metadata.<key>=<value>)');
    if (Array.from(key).length > MAX_METADATA_KEY_CHARS) throw invalidParam(param, `keys are at most ${MAX_METADATA_KEY_CHARS} characters`);
    if (key.includes('\u0000')) throw invalidParam(param, 'must not contain a NUL character');
    const values = [...new Set(query.getAll(param).filter((v) => v !== ''))];
    if (values.some((v) => v.includes('\u0000'))) throw invalidParam(param, 'must not contain a NUL character');
    if (values.length === 0) continue;
    if (values.length > 1) throw invalidParam(param, 'give one value per key');
    if (++count > MAX_METADATA_FILTERS) throw invalidParam(param, `at most ${MAX_METADATA_FILTERS} metadata filters`);
    entries[key] = values[0];
  }
  return count ? entries : undefined;
}

/** Every `score.<name>` parameter, each condition read by lib/features/scores/condition.ts. */
function scoreParams(query: Query): Record<string, string> | undefined {
  const entries: Record<string, string> = {};
  let count = 0;
  for (const param of new Set(query.keys())) {
    if (!param.startsWith(SCORE_FILTER_PREFIX)) continue;
    const name = param.slice(SCORE_FILTER_PREFIX.length);
    if (name === '') throw invalidParam(param, 'needs a score name after "score." (score.<name>=<condition>)');
    if (Array.from(name).length > SCORE_LIMITS.nameLength) throw invalidParam(param, `score names are at most ${SCORE_LIMITS.nameLength} characters`);
    if (name.includes('\u0000')) throw invalidParam(param, 'must not contain a NUL character');
    const values = [...new Set(query.getAll(param).filter((v) => v !== ''))];
    if (values.some((v) => v.includes('\u0000'))) throw invalidParam(param, 'must not contain a NUL character');
    if (values.length === 0) continue;
    if (values.length > 1) throw invalidParam(param, 'give one condition per score name');
    if (++count > MAX_SCORE_FILTERS) throw invalidParam(param, `at most ${MAX_SCORE_FILTERS} score filters`);
    const condition = parseScoreCondition(values[0]);
    if ('problem' in condition) throw invalidParam(param, condition.problem);
    entries[name] = values[0];
  }
  return count ? entries : undefined;
}

/**
 * Reads the named filters from query parameters, in the order given (the first invalid
 * one is reported). Invalid values are a VALIDATION error naming the parameter.
 */
/**
 * The same rules over plain named values (one string, or several for tag), for adapters
 * whose wire format is not a query string (SOAP's filter keys): no query string is built.
 */
export function traceFiltersFromValues(values: Partial<Record<TraceFilterName, string | readonly string[]>>, names: readonly TraceFilterName[]): TraceFilterParams {
  const all = (name: string): string[] => {
    const value = values[name as TraceFilterName];
    return value === undefined ? [] : typeof value === 'string' ? [value] : [...value];
  };
  const query: Query = {
    get: (name) => all(name)[0] ?? null,
    getAll: all,
    keys: () => Object.keys(values)[Symbol.iterator]() as URLSearchParamsIterator<string>,
  };
  return parseTraceFilters(query, names);
}

export function parseTraceFilters(query: Query, names: readonly TraceFilterName[]): TraceFilterParams {
  const filters: TraceFilterParams = {};
  for (const name of names) {
    switch (name) {
      case 'status': {
        const status = enumParam<RunStatus>(query, name, RUN_STATUSES);
        if (status) filters.status = status;
        break;
      }
      case 'decisionType': {
        const type = enumParam<DecisionType>(query, name, DECISION_TYPES);
        if (type) filters.decisionType = type;
        break;
      }
      case 'from':
      case 'to': {
        const date = dateParam(query, name);
        if (date) filters[name] = date;
        break;
      }
      case 'range': {
        const range = enumParam<TimeRange>(query, name, TIME_RANGE_KEYS);
        if (range) filters.range = range;
        break;
      }
      case 'chosen': {
        const label = textParam(query, name);
        if (label !== undefined && Array.from(label).length > MAX_LABEL_CHARS) {
          throw invalidParam(name, `a label is at most ${MAX_LABEL_CHARS} characters`);
        }
        if (label !== undefined) filters.chosen = label;
        break;
      }
      case 'tag': {
        const tags = [...new Set(query.getAll(name).filter((v) => v !== ''))];
        if (tags.some((v) => v.includes('\u0000'))) throw invalidParam(name, 'must not contain a NUL character');
        if (tags.length) filters.tag = tags;
        break;
      }
      case 'q': {
        const q = textLimited(query, name, MAX_QUERY_CHARS);
        if (q !== undefined) filters.q = q;
        break;
      }
      case 'minDurationMs':
      case 'maxDurationMs':
      case 'minCost':
      case 'maxCost': {
        const value = numberParam(query, name);
        if (value !== undefined) filters[name] = value;
        break;
      }
      case 'hasErrors': {
        const raw = query.get(name);
        if (raw === null || raw === '') break;
        if (raw !== 'true' && raw !== 'false') throw invalidParam(name, 'must be true or false');
        filters.hasErrors = raw === 'true';
        break;
      }
      case 'metadata': {
        const entries = metadataParams(query);
        if (entries) filters.metadata = entries;
        break;
      }
      case 'reviewed': {
        const raw = query.get(name);
        if (raw === null || raw === '') break;
        if (raw !== 'true' && raw !== 'false') throw invalidParam(name, 'must be true or false');
        filters.reviewed = raw === 'true';
        break;
      }
      case 'judged': {
        const judged = enumParam<Judged>(query, name, JUDGED_VALUES);
        if (judged) filters.judged = judged;
        break;
      }
      case 'better': {
        const label = textParam(query, name);
        if (label !== undefined && Array.from(label).length > SCORE_LIMITS.categoryLength) {
          throw invalidParam(name, `a label is at most ${SCORE_LIMITS.categoryLength} characters`);
        }
        if (label !== undefined) filters.better = label;
        break;
      }
      case 'score': {
        const entries = scoreParams(query);
        if (entries) filters.score = entries;
        break;
      }
      case 'path':
      case 'fork': {
        const id = textParam(query, name);
        if (id !== undefined && !PATH_ID_PATTERN.test(id)) throw invalidParam(name, 'must be a path or fork id (32 lower-case hex digits)');
        if (id !== undefined) filters[name] = id;
        break;
      }
      default: {
        const value = textParam(query, name);
        if (value !== undefined) filters[name] = value;
      }
    }
  }
  if (filters.range && (filters.from || filters.to)) throw invalidParam('range', 'give range or from/to, not both');
  if (filters.from && filters.to && new Date(filters.from) > new Date(filters.to)) {
    throw invalidParam('from', 'must not be after to');
  }
  if (filters.minDurationMs !== undefined && filters.maxDurationMs !== undefined && filters.minDurationMs > filters.maxDurationMs) {
    throw invalidParam('minDurationMs', 'must not be greater than maxDurationMs');
  }
  if (filters.minCost !== undefined && filters.maxCost !== undefined && filters.minCost > filters.maxCost) {
    throw invalidParam('minCost', 'must not be greater than maxCost');
  }
  return filters;
}

export { escapeLike } from './like';

/** The conditions on "Trace" rows (aliased `trace`, default "t") that the filters ask for. */
export function traceConditions(filters: TraceFilterParams, trace: Sql = raw('t')): Sql[] {
  const t = trace;
  const conditions: Sql[] = [];
  if (filters.status) conditions.push(sql`${t}."status" = CAST(${filters.status} AS "RunStatus")`);
  if (filters.sessionId !== undefined) conditions.push(sql`${t}."sessionId" = ${filters.sessionId}`);
  if (filters.userId !== undefined) conditions.push(sql`${t}."userId" = ${filters.userId}`);
  // ILIKE (what Prisma's insensitive `contains` ran before), served by the trigram index.
  if (filters.search) conditions.push(sql`${t}."name" ILIKE ${`%${escapeLike(filters.search)}%`}`);
  if (filters.name !== undefined) conditions.push(sql`${t}."name" = ${filters.name}`);
  // "TraceModel" holds each trace's models (kept by triggers, migration filter_suggestions).
  if (filters.model !== undefined) conditions.push(sql`EXISTS (SELECT 1 FROM "TraceModel" fm WHERE fm."traceId" = ${t}."id" AND fm."model" = ${filters.model})`);
  if (filters.tag?.length) conditions.push(sql`${t}."tags" @> ARRAY[${join(filters.tag.map((tag) => sql`${tag}`))}]::text[]`);
  if (filters.from) conditions.push(sql`${t}."startedAt" >= ${new Date(filters.from)}`);
  if (filters.to) conditions.push(sql`${t}."startedAt" < ${new Date(filters.to)}`);
  // Resolved now, when the request is served: the same index range as `from`.
  if (filters.range) conditions.push(sql`${t}."startedAt" >= ${new Date(Date.now() - TIME_RANGES[filters.range])}`);
  const reviewFilter = filters.reviewed !== undefined || filters.judged !== undefined || filters.better !== undefined;
  if (filters.decisionType !== undefined || filters.chosen !== undefined || reviewFilter) {
    // One decision point must match the type, the label and the review filters together,
    // so a drill-down from an option's review figures lists the traces of those decisions.
    const decision: Sql[] = [sql`fd."traceId" = ${t}."id"`];
    if (filters.decisionType) decision.push(sql`fd."type" = CAST(${filters.decisionType} AS "DecisionType")`);
    if (filters.chosen !== undefined) decision.push(sql`${optionLabelSql(raw('fd."chosen"'))} = ${filters.chosen}`);
    decision.push(...reviewConditions(filters));
    conditions.push(sql`EXISTS (SELECT 1 FROM "DecisionPoint" fd WHERE ${join(decision, ' AND ')})`);
  }
  for (const [name, text] of Object.entries(filters.score ?? {})) conditions.push(scoreConditionSql(t, name, text));
  if (filters.minDurationMs !== undefined) conditions.push(sql`${t}."totalDuration" >= ${filters.minDurationMs}`);
  if (filters.maxDurationMs !== undefined) conditions.push(sql`${t}."totalDuration" <= ${filters.maxDurationMs}`);
  if (filters.minCost !== undefined) conditions.push(sql`${t}."totalCost" >= ${filters.minCost}`);
  if (filters.maxCost !== undefined) conditions.push(sql`${t}."totalCost" <= ${filters.maxCost}`);
  if (filters.hasErrors !== undefined) {
    // Partial indexes of failed spans' and ERROR events' trace ids keep the probes small.
    const failed = sql`(${t}."status" = 'ERROR'
      OR EXISTS (SELECT 1 FROM "Span" es WHERE es."traceId" = ${t}."id" AND es."status" = 'ERROR')
      OR EXISTS (SELECT 1 FROM "Event" ee WHERE ee."traceId" = ${t}."id" AND ee."type" = 'ERROR'))`;
    conditions.push(filters.hasErrors ? failed : sql`NOT ${failed}`);
  }
  for (const [key, value] of Object.entries(filters.metadata ?? {})) {
    const candidates = metadataCandidates(key, value).map((json) => sql`${t}."metadata" @> CAST(${json} AS jsonb)`);
    conditions.push(sql`(${join(candidates, ' OR ')})`);
  }
  if (filters.q !== undefined) conditions.push(traceMatchesSql(filters.q, t));
  if (filters.path !== undefined) conditions.push(tracePathIsSql(sql`${t}."id"`, filters.path));
  if (filters.fork !== undefined) conditions.push(traceThroughForkSql(sql`${t}."id"`, filters.fork, filters.chosen));
  return conditions;
}

// The review filters on the decision point `fd`: its scores are found by (traceId, …) index
// probes, as a decision point's id is unique only within its trace.
function reviewConditions(filters: TraceFilterParams): Sql[] {
  const conditions: Sql[] = [];
  const onDecision = sql`fs."traceId" = fd."traceId" AND fs."decisionPointId" = fd."id"`;
  const correct = sql`${onDecision} AND fs."name" = ${DECISION_CORRECT} AND fs."dataType" = 'BOOLEAN'`;
  if (filters.reviewed !== undefined) {
    conditions.push(sql`${filters.reviewed ? empty : sql`NOT`} EXISTS (SELECT 1 FROM "Score" fs WHERE ${correct})`);
  }
  if (filters.judged !== undefined) {
    const value = filters.judged === 'right' ? sql`fs."value" <> 0` : sql`fs."value" = 0`;
    conditions.push(sql`EXISTS (SELECT 1 FROM "Score" fs WHERE ${correct} AND ${value})`);
  }
  if (filters.better !== undefined) {
    conditions.push(sql`EXISTS (SELECT 1 FROM "Score" fs WHERE ${onDecision} AND fs."name" = ${DECISION_BETTER_OPTION}
      AND fs."dataType" = 'CATEGORICAL' AND fs."stringValue" = ${filters.better})`);
  }
  return conditions;
}

/**
 * The SQL of one trace's scores of `name` (on the trace, its spans and its decision points;
 * a session's own scores belong to no trace) averaged: NUMERIC values, BOOLEAN as 1 and 0.
 * The list's score column, filter and sort all read this one figure.
 */
export function traceScoreAverageSql(trace: Sql, name: string): Sql {
  return sql`(SELECT avg(sa."value") FROM "Score" sa WHERE sa."traceId" = ${trace}."id" AND sa."name" = ${name} AND sa."dataType" <> 'CATEGORICAL')`;
}

function scoreConditionSql(t: Sql, name: string, text: string): Sql {
  const condition = parseScoreCondition(text);
  if ('problem' in condition) throw invalidParam(`${SCORE_FILTER_PREFIX}${name}`, condition.problem);
  const ofName = sql`fs."traceId" = ${t}."id" AND fs."name" = ${name}`;
  switch (condition.kind) {
    case 'any':
      return sql`EXISTS (SELECT 1 FROM "Score" fs WHERE ${ofName})`;
    case 'compare':
      return sql`${traceScoreAverageSql(t, name)} ${raw(condition.op)} ${condition.value}`;
    case 'equals': {
      const { text: value } = condition;
      const matches: Sql[] = [sql`(fs."dataType" = 'CATEGORICAL' AND fs."stringValue" = ${value})`];
      const n = scoreNumber(value);
      if (n !== null) matches.push(sql`(fs."dataType" = 'NUMERIC' AND fs."value" = ${n})`);
      if (value === 'true' || value === 'false') matches.push(sql`(fs."dataType" = 'BOOLEAN' AND fs."value" = ${value === 'true' ? 1 : 0})`);
      return sql`EXISTS (SELECT 1 FROM "Score" fs WHERE ${ofName} AND (${join(matches, ' OR ')}))`;
    }
  }
}

// A JSON number literal as the grammar writes it; a value that is one may be stored as a number.
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * `metadata.<key>=<value>` matches when the top-level entry is the string `value`, or the
 * number, boolean or null that `value` spells (metadata.attempt=2 finds {"attempt": 2}):
 * a query string cannot say which the client stored. Each candidate is a containment
 * test, which the GIN index on metadata serves.
 */
export function metadataCandidates(key: string, value: string): string[] {
  const k = JSON.stringify(key);
  const candidates = [`{${k}:${JSON.stringify(value)}}`];
  // Bounded: a literal like 1e999999 is valid JSON that PostgreSQL's numeric refuses.
  const storableNumber = JSON_NUMBER.test(value) && value.length <= 40 && Number.isFinite(Number(value));
  if (storableNumber || value === 'true' || value === 'false' || value === 'null') candidates.push(`{${k}:${value}}`);
  return candidates;
}

/** `WHERE …` for the filters, or nothing when there is none. */
export function traceWhereSql(filters: TraceFilterParams, trace: Sql = raw('t')): Sql {
  const conditions = traceConditions(filters, trace);
  return conditions.length ? sql`WHERE ${join(conditions, ' AND ')}` : empty;
}
