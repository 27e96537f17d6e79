// Decoded spans built in tests, for the cases no SDK records on purpose (bad ids, NULs...).
import type { Attributes, OtlpEvent, OtlpResource, OtlpScope, OtlpSpan } from '@/lib/features/otlp/types';

export const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
export const START = 1_767_225_600_000_000_000n; // 2026-01-01T00:00:00Z
export const MS = 1_000_000n;

export const resource: OtlpResource = { attributes: { 'service.name': 'test-agent', 'service.version': '0.0.1' } };
export const scope: OtlpScope = { name: 'test-scope', version: '1.0.0', attributes: {} };

let next = 1;
/** A fresh, valid 16-hex span id. */
export const spanId = () => (next++).toString(16).padStart(16, '0');

export function span(fields: Partial<OtlpSpan> = {}): OtlpSpan {
  return {
    traceId: TRACE_ID,
    spanId: spanId(),
    parentSpanId: '',
    name: 'span',
    kind: 1,
    startTimeUnixNano: START,
    endTimeUnixNano: START + 10n * MS,
    attributes: {},
    events: [],
    status: { code: 0, message: '' },
    resource,
    scope,
    ...fields,
  };
}

export function event(name: string, attributes: Attributes = {}, timeUnixNano = START + 5n * MS): OtlpEvent {
  return { name, attributes, timeUnixNano };
}
