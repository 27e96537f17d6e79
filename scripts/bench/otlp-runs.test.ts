import { describe, expect, it } from 'vitest';
import { decodeProtobufRequest } from '@/lib/transports/otlp/decode';
import { mapOtlpSpans } from '@/lib/features/otlp/map';
import { parseIngestBody } from '@/lib/features/ingest/validate';
import { spanTreeDepth } from './generate';
import { IdSource } from './rows';
import { buildOtlpRequests, encodeOtlp, renderOtlp } from './otlp-requests';
import { LLM_PAYLOAD_MAX, LLM_PAYLOAD_MIN, RUN_SPANS_MAX, RUN_SPANS_MIN, generateRun, requestRuns, runSizes } from './otlp-runs';
import { runRecords, toGenTrace } from './otlp-shapes';

describe('generateRun', () => {
  it('is a pure function of (seed, index, spans) with exactly that many spans', () => {
    expect(generateRun(42, 7, 20)).toEqual(generateRun(42, 7, 20));
    expect(generateRun(42, 7, 20)).not.toEqual(generateRun(42, 8, 20));
    for (const n of [2, 3, 12, 40, 51]) expect(generateRun(1, n, n).spans).toHaveLength(n);
  });

  it('is an agent run: one root agent span, LLM calls, the tools they call, parents first', () => {
    const run = generateRun(3, 11, 30);
    const [root, ...children] = run.spans;
    expect(root).toMatchObject({ type: 'AGENT', parentId: null });
    expect(children.every((s) => s.parentId === root.id)).toBe(true);
    expect(new Set(run.spans.map((s) => s.id)).size).toBe(30);
    // Every tool span follows the LLM call that asked for it, with the same tool and call id.
    children.forEach((s, i) => {
      if (s.type !== 'TOOL_CALL') return;
      const call = children[i - 1].llm?.toolCall;
      expect(call).toMatchObject({ name: s.tool!.name, id: s.tool!.callId });
    });
    for (const s of run.spans) expect(s.endMs).toBeGreaterThanOrEqual(s.startMs);
    expect(root.endMs).toBeGreaterThanOrEqual(Math.max(...children.map((s) => s.endMs)));
  });

  it('writes 1-2 KB prompts and responses, with tool calls, retries, exceptions and both conventions', () => {
    const runs = Array.from({ length: 200 }, (_, i) => generateRun(5, i, 24));
    const llm = runs.flatMap((r) => r.spans.filter((s) => s.llm).map((s) => s.llm!));
    for (const l of llm) {
      const prompt = l.system.length + l.prompt.length;
      const response = l.text.length + (l.toolCall ? JSON.stringify(l.toolCall).length : 0);
      expect(prompt).toBeGreaterThanOrEqual(LLM_PAYLOAD_MIN - 1);
      expect(prompt).toBeLessThanOrEqual(LLM_PAYLOAD_MAX + 1);
      expect(response).toBeGreaterThanOrEqual(LLM_PAYLOAD_MIN - 1);
      expect(response).toBeLessThanOrEqual(LLM_PAYLOAD_MAX + 1);
      expect(l.offered.length).toBeGreaterThanOrEqual(3);
    }
    const share = (n: number) => n / llm.length;
    expect(share(llm.filter((l) => l.toolCall).length)).toBeGreaterThan(0.3);
    const events = runs.flatMap((r) => r.spans.flatMap((s) => s.events));
    expect(events.some((e) => e.kind === 'exception')).toBe(true);
    expect(events.some((e) => e.kind === 'retry')).toBe(true);
    expect(events.filter((e) => e.kind === 'custom')).toHaveLength(runs.length);
    const genai = runs.filter((r) => r.convention === 'genai').length;
    expect(genai).toBeGreaterThan(60);
    expect(genai).toBeLessThan(140);
  });
});

describe('requests', () => {
  it('hold whole runs adding up to exactly the requested spans', () => {
    for (const r of [0, 1, 2, 17]) {
      const sizes = runSizes(9, r, 1000);
      expect(sizes.reduce((a, b) => a + b, 0)).toBe(1000);
      for (const n of sizes) {
        expect(n).toBeGreaterThanOrEqual(RUN_SPANS_MIN);
        expect(n).toBeLessThan(RUN_SPANS_MIN + RUN_SPANS_MAX);
      }
    }
    expect(runSizes(9, 0, 5)).toEqual([5]);
  });

  it('encode with OpenTelemetry to protobuf the project decodes, and take fresh trace ids in place', () => {
    const runs = requestRuns(4, 0, 1000);
    const tpl = encodeOtlp(runs);
    const ids = new IdSource(77).next(runs.length);
    const decoded = decodeProtobufRequest(new Uint8Array(renderOtlp(tpl, ids)));
    expect(decoded).toHaveLength(1000);
    const byTrace = new Map<string, number>();
    for (const s of decoded) byTrace.set(s.traceId, (byTrace.get(s.traceId) ?? 0) + 1);
    expect([...byTrace.keys()].sort()).toEqual([...ids].sort());
    runs.forEach((run, k) => expect(byTrace.get(ids[k])).toBe(run.spans.length));
    const first = decoded.find((s) => s.traceId === ids[0] && s.parentSpanId === '')!;
    expect(first.spanId).toBe(runs[0].spans[0].id);
    expect(first.resource.attributes['service.name']).toMatch(/agents$/);
  });

  it('map through the OTLP mapper to the records the JSON batch of the same runs carries', () => {
    const runs = requestRuns(6, 1, 1000);
    const ids = new IdSource(5).next(runs.length);
    const mapped = mapOtlpSpans(decodeProtobufRequest(new Uint8Array(renderOtlp(encodeOtlp(runs), ids))));
    expect(mapped.rejected).toEqual([]);
    const byId = new Map(mapped.traces.map((t) => [t.traceId, t]));
    runs.forEach((run, k) => {
      const json = toGenTrace(run, ids[k]);
      const otlp = byId.get(ids[k])!;
      expect(otlp.spans.map((s) => s.id).sort()).toEqual(json.spans.map((s) => s.id).sort());
      expect(otlp.spans.map((s) => `${s.id} ${s.type} ${s.status}`).sort()).toEqual(json.spans.map((s) => `${s.id} ${s.type} ${s.status}`).sort());
      expect(otlp.decisionPoints.map((d) => `${d.parentSpanId} ${d.type}`).sort()).toEqual(json.decisionPoints.map((d) => `${d.parentSpanId} ${d.type}`).sort());
      expect(otlp.decisionPoints.every((d) => d.inferred)).toBe(true);
      expect(otlp.events.map((e) => `${e.spanId} ${e.type}`).sort()).toEqual(json.events.map((e) => `${e.spanId} ${e.type}`).sort());
      expect(otlp.spans.reduce((n, s) => n + (s.tokenCount ?? 0), 0)).toBe(json.totalTokens);
      expect(otlp.root?.status).toBe(json.status);
      expect(runRecords(run)).toEqual({ spans: json.spans.length, decisions: json.decisionPoints.length, events: json.events.length });
    });
  });

  it('as JSON: a valid POST /api/traces body with the same records', () => {
    const [set] = buildOtlpRequests(8, 1, 300);
    const ids = new IdSource(3).next(set.content.traces);
    const batch = parseIngestBody(set.json.body.render(ids).toString(), { maxBatchTraces: 1000, maxChildrenPerTrace: 10_000 });
    expect(batch.traces.map((t) => t.id)).toEqual(ids);
    const count = (f: (t: (typeof batch.traces)[number]) => number) => batch.traces.reduce((n, t) => n + f(t), 0);
    expect(count((t) => t.spans.length)).toBe(300);
    expect(count((t) => t.decisionPoints.length)).toBe(set.content.decisions);
    expect(count((t) => t.events.length)).toBe(set.content.events);
    expect(set.json.records).toBe(set.content.records);
    expect(Math.max(...batch.traces.map((t) => spanTreeDepth(t.spans)))).toBe(2);
  });
});
