// TRACE: read by id, query with the JSON list's filters, save like POST /api/traces.
import 'server-only';
import type { ScoreRecord } from '@/lib/features/scores/shared';
import { scoreRecordFields } from './score';
import { AppError } from '@/lib/core/errors';
import { getSavedTraceOrThrow, getTraceOrThrow } from '@/lib/features/traces';
import { ingestTraces } from '@/lib/features/ingest';
import { traceFiltersFromValues, type TraceFilterName } from '@/lib/features/query';
import { listTraces } from '@/lib/features/traces';
import type { TraceDetail } from '@/lib/features/traces/shared';
import { validateIngestBody } from '@/lib/features/ingest/shared';
import { readParamXml, resultElement, tabNode, type ParamDoc, type ResultNode } from '@/lib/transports/soap/codec';
import {
  DECISION_FIELDS,
  EVENT_FIELDS,
  SPAN_FIELDS,
  TRACE_COUNT_FIELDS,
  TRACE_FIELDS,
  paramObject,
  recordFields,
} from '@/lib/transports/soap/fields';
import type { ObjectContext, Payload, PublicObject } from '@/lib/transports/soap/registry';
import { description } from './describe';

/** TRACE query's filter keys: the list's filters of the same names. */
const SOAP_FILTERS = ['status', 'sessionId', 'search', 'tag'] as const satisfies readonly TraceFilterName[];

// TAB ids of the children, with the JSON API's array names.
const TABS = [
  { id: 'DECISIONPOINTS', key: 'decisionPoints', fields: DECISION_FIELDS },
  { id: 'SPANS', key: 'spans', fields: SPAN_FIELDS },
  { id: 'EVENTS', key: 'events', fields: EVENT_FIELDS },
] as const;

export function traceNodes(trace: TraceDetail): ResultNode[] {
  const scores = scoresIn(trace);
  return [
    { kind: 'GRP', id: 'TRACE', fields: recordFields(TRACE_FIELDS, trace) },
    ...TABS.map((tab): ResultNode => tabNode<object>(tab.id, trace[tab.key], (child) => recordFields(tab.fields, child))),
    // Only a trace with scores has the TAB, as only such a trace has `scores` in JSON (fields: SCORE's getDescription).
    ...(scores.length > 0 ? [tabNode('SCORES', scores, scoreRecordFields)] : []),
  ];
}

/** Every score of the trace, its spans and its decision points, oldest first. */
function scoresIn(trace: TraceDetail): ScoreRecord[] {
  const all = [...(trace.scores ?? []), ...trace.spans.flatMap((s) => s.scores ?? []), ...trace.decisionPoints.flatMap((d) => d.scores ?? [])];
  return all.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

function tracePayload(trace: TraceDetail): Payload {
  return { xml: resultElement(traceNodes(trace)), json: trace };
}

function countRecords(trace: TraceDetail): number {
  return 1 + trace.decisionPoints.length + trace.spans.length + trace.events.length;
}

/** A PARAM document as the JSON API's trace object; the domain validator judges it. */
export function paramToTrace(doc: ParamDoc, warn: (m: string) => void): Record<string, unknown> {
  const fields = doc.groups.get('TRACE') ?? doc.fields;
  const trace: Record<string, unknown> = { tags: [], ...paramObject(TRACE_FIELDS, fields, 'TRACE', warn) };
  for (const tab of TABS) {
    const lines = doc.tabs.get(tab.id) ?? [];
    trace[tab.key] = lines.map((line, i) => paramObject(tab.fields, line, `${tab.id}[${i + 1}]`, warn));
  }
  for (const id of doc.tabs.keys()) {
    if (!TABS.some((t) => t.id === id)) warn(`Unknown TAB "${id}" ignored`);
  }
  return trace;
}

function parseObject(objectXml: string, warn: (m: string) => void): unknown {
  const text = objectXml.trim();
  if (text === '') throw new AppError('VALIDATION', 'objectXml is empty: send a <PARAM> document or a JSON trace');
  if (text.startsWith('{')) {
    try {
      return JSON.parse(text);
    } catch {
      throw new AppError('VALIDATION', 'objectXml starts with "{" but is not valid JSON');
    }
  }
  return paramToTrace(readParamXml(text, 'objectXml'), warn);
}

export const traceObject: PublicObject = {
  name: 'TRACE',
  keys: { names: ['id'], required: ['id'] },
  filters: { names: SOAP_FILTERS, required: [] },

  describe() {
    return description(
      'TRACE',
      [
        { tag: 'GRP', name: 'TRACE', fields: TRACE_FIELDS },
        ...TABS.map((t) => ({ tag: 'TAB' as const, name: t.id, fields: t.fields })),
      ],
      this.filters,
    );
  },

  async read(ctx, keys) {
    const trace = await ctx.withContext((service) => getTraceOrThrow(service, keys.id));
    ctx.meter.recordsRead += countRecords(trace);
    return tracePayload(trace);
  },

  async query(ctx, filters, listSize) {
    // The list's own filter rules (status must be a known value, an empty filter is absent, ...).
    const values = Object.fromEntries(SOAP_FILTERS.filter((name) => filters[name] !== undefined).map((name) => [name, filters[name]]));
    const params = traceFiltersFromValues(values, SOAP_FILTERS);
    const list = await ctx.withContext((service) => listTraces(service, { ...params, page: 1, limit: listSize }));
    ctx.meter.recordsRead += list.traces.length;
    const rows = list.traces.map(({ _count, ...trace }) => ({
      ...trace,
      decisionPointCount: _count.decisionPoints,
      spanCount: _count.spans,
      eventCount: _count.events,
    }));
    const defs = [...TRACE_FIELDS, ...TRACE_COUNT_FIELDS];
    return {
      xml: resultElement(rows.map((row, i) => ({ kind: 'LIN', num: i + 1, fields: recordFields(defs, row) }))),
      json: rows,
    };
  },

  async save(ctx: ObjectContext, objectXml: string) {
    const raw = parseObject(objectXml, (m) => ctx.warn(m));
    const batch = validateIngestBody({ traces: [raw] }, ctx.limits);
    const [trace] = batch.traces;
    await ctx.withContext((service) => ingestTraces(service, batch));
    ctx.meter.recordsWritten += 1 + trace.decisionPoints.length + trace.spans.length + trace.events.length;
    const saved = await ctx.withContext((service) => getSavedTraceOrThrow(service, trace.id));
    ctx.meter.recordsRead += countRecords(saved);
    return tracePayload(saved);
  },
};
