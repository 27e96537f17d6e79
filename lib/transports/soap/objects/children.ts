// SPAN, DECISION and EVENT: one child by traceId + id, or one trace's children filtered.
import 'server-only';
import {
  getDecisionPointOrThrow,
  getEventOrThrow,
  getSpanOrThrow,
  queryDecisionPoints,
  queryEvents,
  querySpans,
} from '@/lib/features/traces';
import { resultElement } from '@/lib/transports/soap/codec';
import { DECISION_FIELDS, EVENT_FIELDS, SPAN_FIELDS, recordFields, type FieldDef } from '@/lib/transports/soap/fields';
import type { KeySpec, ObjectContext, Payload, PublicObject } from '@/lib/transports/soap/registry';
import { description } from './describe';

/** A record as the object's description lists it, in JSON too: fields the domain added later reach SOAP clients only once described. */
function described(fields: FieldDef[], record: object): Record<string, unknown> {
  const names = new Set(fields.map((f) => f.name));
  return Object.fromEntries(Object.entries(record).filter(([name]) => names.has(name)));
}

const opt = (value: string | undefined) => (value === undefined || value === '' ? undefined : value);

function childObject<R extends object>(
  name: string,
  fields: FieldDef[],
  filters: KeySpec,
  read: (ctx: ObjectContext, traceId: string, id: string) => Promise<R>,
  query: (ctx: ObjectContext, f: Record<string, string>, limit: number) => Promise<R[]>,
): PublicObject {
  return {
    name,
    keys: { names: ['traceId', 'id'], required: ['traceId', 'id'] },
    filters,
    describe() {
      return description(name, [{ tag: 'GRP', name, fields }], filters);
    },
    async read(ctx, keys): Promise<Payload> {
      const record = await read(ctx, keys.traceId, keys.id);
      ctx.meter.recordsRead += 1;
      return { xml: resultElement([{ kind: 'GRP', id: name, fields: recordFields(fields, record) }]), json: described(fields, record) };
    },
    async query(ctx, f, listSize): Promise<Payload> {
      const records = await query(ctx, f, listSize);
      ctx.meter.recordsRead += records.length;
      return {
        xml: resultElement(records.map((r, i) => ({ kind: 'LIN', num: i + 1, fields: recordFields(fields, r) }))),
        json: records.map((r) => described(fields, r)),
      };
    },
  };
}

export const spanObject = childObject(
  'SPAN',
  SPAN_FIELDS,
  { names: ['traceId', 'type', 'status', 'parentSpanId'], required: ['traceId'] },
  (ctx, traceId, id) => ctx.withContext((service) => getSpanOrThrow(service, traceId, id)),
  (ctx, f, limit) =>
    ctx.withContext((service) =>
      querySpans(service, { traceId: f.traceId, type: opt(f.type), status: opt(f.status), parentSpanId: opt(f.parentSpanId), limit }),
    ),
);

export const decisionObject = childObject(
  'DECISION',
  DECISION_FIELDS,
  { names: ['traceId', 'type'], required: ['traceId'] },
  (ctx, traceId, id) => ctx.withContext((service) => getDecisionPointOrThrow(service, traceId, id)),
  (ctx, f, limit) => ctx.withContext((service) => queryDecisionPoints(service, { traceId: f.traceId, type: opt(f.type), limit })),
);

export const eventObject = childObject(
  'EVENT',
  EVENT_FIELDS,
  { names: ['traceId', 'type', 'spanId'], required: ['traceId'] },
  (ctx, traceId, id) => ctx.withContext((service) => getEventOrThrow(service, traceId, id)),
  (ctx, f, limit) =>
    ctx.withContext((service) => queryEvents(service, { traceId: f.traceId, type: opt(f.type), spanId: opt(f.spanId), limit })),
);
