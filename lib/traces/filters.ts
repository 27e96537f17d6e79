// Trace filters: parsed once from query parameters and turned into SQL once, for every
// verb that selects traces (the list, insights, and later export), so a filter means the
// same thing everywhere and a drill-down from an aggregate lands on exactly its traces.
//
// They live with the traces they select. The `chosen` filter compares a decision's
// chosen label, whose SQL is lib/insights/label-sql.ts: labels are an insights concept
// that the list borrows, not the other way round.
import { AppError } from '@/lib/errors';
import { Prisma } from '@/lib/generated/prisma/client';
import { optionLabelSql } from '@/lib/insights/label-sql';
import { MAX_LABEL_CHARS } from '@/lib/insights/labels';
import { DECISION_TYPES, RUN_STATUSES, type DecisionType, type RunStatus, type TraceFilterParams } from './types';
import { parseIsoDateTime } from './validate';

export type TraceFilterName = keyof TraceFilterParams;

/**
 * Every filter, in the order the list checks them: the spec's (status, search, sessionId)
 * first. The list's totals take fast paths only when they know every filter is absent.
 */
export const TRACE_FILTER_NAMES = [
  'status',
  'search',
  'sessionId',
  'name',
  'tag',
  'from',
  'to',
  'decisionType',
  'chosen',
] as const satisfies readonly TraceFilterName[];
// A filter added to TraceFilterParams but not to the list above fails to compile here.
const allNamed: Record<Exclude<TraceFilterName, (typeof TRACE_FILTER_NAMES)[number]>, never> = {};
void allNamed;

type Query = Pick<URLSearchParams, 'get'>;

function invalid(name: string, why: string): AppError {
  return new AppError('VALIDATION', `Invalid ${name} parameter: ${why}`);
}

/** A non-empty text parameter; empty means absent, as for every filter of the list. */
function textParam(query: Query, name: string): string | undefined {
  const value = query.get(name);
  if (value === null || value === '') return undefined;
  // PostgreSQL text cannot hold NUL: refused here rather than failing in the database.
  if (value.includes('\u0000')) throw invalid(name, 'must not contain a NUL character');
  return value;
}

function enumParam<T extends string>(query: Query, name: string, allowed: readonly T[]): T | undefined {
  const value = query.get(name);
  if (value === null || value === '') return undefined;
  if (!(allowed as readonly string[]).includes(value)) throw invalid(name, `must be one of ${allowed.join(', ')}`);
  return value as T;
}

/** An ISO 8601 date-time read as ingest reads dates; normalised to UTC with milliseconds. */
function dateParam(query: Query, name: string): string | undefined {
  const raw = query.get(name);
  if (raw === null || raw.trim() === '') return undefined;
  // An unencoded "+02:00" offset arrives as " 02:00" (a + in a query is a space).
  const value = raw.trim().replace(/(\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?) (\d{2}(?::?\d{2})?)$/, '$1+$2');
  const date = parseIsoDateTime(value);
  if (!date) throw invalid(name, 'must be an ISO 8601 date-time (e.g. 2026-01-02T03:04:05.000Z)');
  return date.toISOString();
}

/**
 * Reads the named filters from query parameters, in the order given (the first invalid
 * one is reported). Invalid values are a VALIDATION error naming the parameter.
 */
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
      case 'chosen': {
        const label = textParam(query, name);
        if (label !== undefined && Array.from(label).length > MAX_LABEL_CHARS) {
          throw invalid(name, `a label is at most ${MAX_LABEL_CHARS} characters`);
        }
        if (label !== undefined) filters.chosen = label;
        break;
      }
      default: {
        const value = textParam(query, name);
        if (value !== undefined) filters[name] = value;
      }
    }
  }
  if (filters.from && filters.to && new Date(filters.from) > new Date(filters.to)) {
    throw invalid('from', 'must not be after to');
  }
  return filters;
}

// `search` is a plain substring: unescaped, "50%" or "a_b" would be LIKE wildcards and
// match far more.
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The conditions on "Trace" rows (aliased `trace`, default "t") that the filters ask for. */
export function traceConditions(filters: TraceFilterParams, trace: Prisma.Sql = Prisma.raw('t')): Prisma.Sql[] {
  const t = trace;
  const conditions: Prisma.Sql[] = [];
  if (filters.status) conditions.push(Prisma.sql`${t}."status" = CAST(${filters.status} AS "RunStatus")`);
  if (filters.sessionId !== undefined) conditions.push(Prisma.sql`${t}."sessionId" = ${filters.sessionId}`);
  // ILIKE (what Prisma's insensitive `contains` ran before), served by the trigram index.
  if (filters.search) conditions.push(Prisma.sql`${t}."name" ILIKE ${`%${escapeLike(filters.search)}%`}`);
  if (filters.name !== undefined) conditions.push(Prisma.sql`${t}."name" = ${filters.name}`);
  if (filters.tag !== undefined) conditions.push(Prisma.sql`${t}."tags" @> ARRAY[${filters.tag}]::text[]`);
  if (filters.from) conditions.push(Prisma.sql`${t}."startedAt" >= ${new Date(filters.from)}`);
  if (filters.to) conditions.push(Prisma.sql`${t}."startedAt" < ${new Date(filters.to)}`);
  if (filters.decisionType !== undefined || filters.chosen !== undefined) {
    const decision: Prisma.Sql[] = [Prisma.sql`fd."traceId" = ${t}."id"`];
    if (filters.decisionType) decision.push(Prisma.sql`fd."type" = CAST(${filters.decisionType} AS "DecisionType")`);
    if (filters.chosen !== undefined) decision.push(Prisma.sql`${optionLabelSql(Prisma.raw('fd."chosen"'))} = ${filters.chosen}`);
    conditions.push(Prisma.sql`EXISTS (SELECT 1 FROM "DecisionPoint" fd WHERE ${Prisma.join(decision, ' AND ')})`);
  }
  return conditions;
}

/** `WHERE …` for the filters, or nothing when there is none. */
export function traceWhereSql(filters: TraceFilterParams, trace: Prisma.Sql = Prisma.raw('t')): Prisma.Sql {
  const conditions = traceConditions(filters, trace);
  return conditions.length ? Prisma.sql`WHERE ${Prisma.join(conditions, ' AND ')}` : Prisma.empty;
}
