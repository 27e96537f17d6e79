// The requests of the OTLP bench, built before timing starts: a few distinct requests of
// whole agent runs, each encoded once by OpenTelemetry's own protobuf serializer (the one
// @opentelemetry/exporter-trace-otlp-proto uses) and once as a POST /api/traces batch of
// the same runs, both with placeholder trace ids that fresh ids replace in place per send.
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { Rng } from './generate';
import { buildTemplate, type BatchTemplate } from './rows';
import { requestRuns, type AgentRun } from './otlp-runs';
import { otelSources, runRecords, toGenTrace, toReadableSpans } from './otlp-shapes';

/** What one request stores, from the generator: the expectation the database is checked against. */
export interface RequestContent {
  traces: number;
  spans: number;
  decisions: number;
  events: number;
  /** traces + spans + decisions + events: the ingest scenarios' "records". */
  records: number;
  /** Per trace of the request, in order: what GET /api/traces/{id} must show. */
  perTrace: { spans: number; decisions: number; events: number; tokens: number; status: string }[];
}

/** One encoded ExportTraceServiceRequest whose trace ids can be replaced in place. */
export interface OtlpTemplate {
  body: Buffer;
  /** Per trace k, the byte offsets of its 16-byte trace id (one per span). */
  offsets: number[][];
}

export interface OtlpRequestSet {
  content: RequestContent;
  otlp: OtlpTemplate;
  json: BatchTemplate;
}

/** A 16-byte placeholder trace id for trace k of a template (random bytes: they never occur in the text). */
function placeholderId(k: number): string {
  return new Rng(0x0a11d, k).hex(32);
}

function contentOf(runs: AgentRun[]): RequestContent {
  const perTrace = runs.map((run) => {
    const r = runRecords(run);
    const t = toGenTrace(run, '');
    return { ...r, tokens: t.totalTokens, status: t.status };
  });
  const sum = (f: (x: (typeof perTrace)[number]) => number) => perTrace.reduce((n, x) => n + f(x), 0);
  const spans = sum((x) => x.spans);
  const decisions = sum((x) => x.decisions);
  const events = sum((x) => x.events);
  return { traces: runs.length, spans, decisions, events, records: runs.length + spans + decisions + events, perTrace };
}

/** Encodes the runs with OpenTelemetry's protobuf serializer and finds each trace id's bytes. */
export function encodeOtlp(runs: AgentRun[]): OtlpTemplate {
  const sources = otelSources();
  const spans: ReadableSpan[] = runs.flatMap((run, k) => toReadableSpans(run, placeholderId(k), sources));
  const body = Buffer.from(ProtobufTraceSerializer.serializeRequest(spans)!);
  const offsets = runs.map((run, k) => {
    const id = Buffer.from(placeholderId(k), 'hex');
    const found: number[] = [];
    for (let at = body.indexOf(id); at >= 0; at = body.indexOf(id, at + 16)) {
      // Span.trace_id is field 1, length-delimited, 16 bytes: tag 0x0a, length 0x10.
      if (body[at - 2] !== 0x0a || body[at - 1] !== 0x10) throw new Error(`trace id placeholder ${k} found outside a trace_id field`);
      found.push(at);
    }
    if (found.length !== run.spans.length) throw new Error(`trace ${k}: ${found.length} trace ids in the encoding, ${run.spans.length} spans`);
    return found;
  });
  return { body, offsets };
}

/** The template's bytes with fresh trace ids (32 hex each), spliced in place: same length, same framing. */
export function renderOtlp(tpl: OtlpTemplate, ids: readonly string[]): Buffer {
  const out = Buffer.from(tpl.body);
  tpl.offsets.forEach((offsets, k) => {
    const id = Buffer.from(ids[k], 'hex');
    for (const at of offsets) id.copy(out, at);
  });
  return out;
}

/** `count` distinct requests of `spansPerRequest` spans, each ready to send both ways. */
export function buildOtlpRequests(seed: number, count: number, spansPerRequest: number): OtlpRequestSet[] {
  return Array.from({ length: count }, (_, r) => {
    const runs = requestRuns(seed, r, spansPerRequest);
    return { content: contentOf(runs), otlp: encodeOtlp(runs), json: buildTemplate(runs.map((run) => toGenTrace(run, ''))) };
  });
}
