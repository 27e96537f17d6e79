// Scores that come with traces, on every test database: a JSON batch's `scores` (SDK),
// USER_FEEDBACK events with a score, rating or thumbs (FEEDBACK), and OTLP `crossroads.score`
// span events sent by the real OpenTelemetry exporter to the real route over loopback HTTP.
import { context as otelContext, trace as otelTrace } from '@opentelemetry/api';
import { ExportResultCode } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { POST as otlpPost } from '@/app/api/otel/v1/traces/route';
import { useDatabase } from '@/lib/db';
import { AppError } from '@/lib/core/errors';
import type { Database } from '@/lib/db/open';
import { sql } from '@/lib/db/sql';
import { getTraceOrThrow } from '@/lib/features/traces/detail';
import { ingestTraces } from '@/lib/features/ingest/ingest';
import { validateIngestBody } from '@/lib/features/ingest/validate';
import { resetAccess } from '@/test/support/access';
import { testContext } from '@/test/support/context';
import { testDatabases, truncateAll } from '@/test/support/databases';
import { makeTrace, uid } from '@/test/support/fixtures';
import { serveRoutes, type RouteServer } from '@/test/support/route-server';
import { asKey, scoreCount } from '@/test/support/scores';
import { createScoreConfig, listScores, parseConfigBody, parseScoreListParams } from './';

const limits = { maxBatchTraces: 100, maxChildrenPerTrace: 100 };

const feedbackEvent = (id: string, metadata: unknown, spanId?: string) => ({
  id,
  type: 'USER_FEEDBACK',
  name: 'user feedback',
  timestamp: '2026-01-02T03:04:06.000Z',
  metadata,
  ...(spanId && { spanId }),
});

describe('a JSON batch refuses scores it cannot place, with the field and its index', () => {
  it.each([
    [{ spanId: 'elsewhere', name: 'n', value: 1 }, 'traces[0].scores[1].spanId "elsewhere" is not a span of this trace'],
    [{ decisionPointId: 'dX', name: 'n', value: 1 }, 'traces[0].scores[1].decisionPointId "dX" is not a decision point of this trace'],
    [{ traceId: 'other', name: 'n', value: 1 }, 'traces[0].scores[1].traceId must be this trace\'s id ("t-x") or absent'],
    [{ name: 'n', value: [1] }, 'traces[0].scores[1].value is required and must be a number, a string or a boolean'],
  ])('%j', (bad, message) => {
    const body = { traces: [makeTrace({ id: 't-x', scores: [{ name: 'ok', value: 1 }, bad] })] };
    expect(() => validateIngestBody(body, limits)).toThrow(message);
  });

  it('scores must be an array, and an id is used once per batch', () => {
    expect(() => validateIngestBody({ traces: [makeTrace({ id: 't-x', scores: {} })] }, limits)).toThrow('traces[0].scores must be an array');
    const twice = { traces: [makeTrace({ scores: [{ id: 's', name: 'n', value: 1 }] }), makeTrace({ scores: [{ id: 's', name: 'n', value: 1 }] })] };
    expect(() => validateIngestBody(twice, limits)).toThrow('traces[1].scores[0].id "s" appears more than once in this batch');
  });

  it('the seed contract\'s checks come first, with their messages', () => {
    expect(() => validateIngestBody({ traces: [makeTrace({ id: '', scores: 'nonsense' })] }, limits)).toThrow('traces[0].id is required and must be a non-empty string');
  });
});

describe.each(testDatabases())('scores coming with traces on $name', (target) => {
  let db: Database;
  let server: RouteServer;

  beforeAll(async () => {
    db = await target.open();
    useDatabase(db);
    resetAccess();
    server = await serveRoutes({ '/api/otel/v1/traces': otlpPost });
  });
  afterAll(async () => {
    await server.close();
    await db.close();
  });
  beforeEach(async () => {
    useDatabase(db);
    await truncateAll(db);
  });

  it('stores a batch\'s scores (SDK) and USER_FEEDBACK events\' scores (FEEDBACK); the events stay', async () => {
    const id = uid('batch');
    const body = {
      traces: [
        makeTrace({
          id,
          scores: [
            { id: 'sdk-1', name: 'quality', value: 0.7, comment: 'from the agent' },
            { spanId: 's2', name: 'grounded', value: true },
            { decisionPointId: 'd1', name: 'decision.correct', value: false },
          ],
          events: [
            feedbackEvent('e1', { thumbs: 'down', comment: 'wrong city' }, 's2'),
            feedbackEvent('e2', { rating: 4 }),
            feedbackEvent('e3', { score: 0.5, rating: 1 }, 'not-a-span'),
            feedbackEvent('e4', { thumbs: 'sideways' }),
            { id: 'e5', type: 'CUSTOM', name: 'other', timestamp: '2026-01-02T03:04:06.000Z', metadata: { score: 1 } },
          ],
        }),
      ],
    };
    await ingestTraces(asKey(db, ['ingest'], 'sdk key'), validateIngestBody(body, limits));
    const detail = await getTraceOrThrow(testContext(db), id);
    expect(detail.events).toHaveLength(5);
    const all = (await listScores(testContext(db), parseScoreListParams(new URLSearchParams('limit=100')))).scores;
    const pick = (s: (typeof all)[number]) => ({ target: s.spanId ?? s.decisionPointId ?? 'trace', name: s.name, value: s.value, source: s.source, comment: s.comment });
    expect(all.map(pick).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))).toEqual(
      [
        { target: 'trace', name: 'quality', value: 0.7, source: 'SDK', comment: 'from the agent' },
        { target: 's2', name: 'grounded', value: true, source: 'SDK', comment: null },
        { target: 'd1', name: 'decision.correct', value: false, source: 'SDK', comment: null },
        { target: 's2', name: 'user_feedback', value: false, source: 'FEEDBACK', comment: 'wrong city' },
        { target: 'trace', name: 'user_feedback', value: 4, source: 'FEEDBACK', comment: null },
        // An event naming no span of the trace scores the trace; score wins over rating.
        { target: 'trace', name: 'user_feedback', value: 0.5, source: 'FEEDBACK', comment: null },
      ].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
    );
    expect(all.every((s) => s.author.kind === 'key' && s.author.name === 'sdk key')).toBe(true);
    expect(detail.spans.find((s) => s.id === 's2')?.scores?.map((s) => s.name)).toEqual(['grounded', 'user_feedback']);
  });

  it('a batch\'s scores must fit their configs; a misfit stores nothing of the batch', async () => {
    await createScoreConfig(testContext(db), parseConfigBody('{"name":"stars","dataType":"NUMERIC","min":1,"max":5}'));
    const batch = validateIngestBody({ traces: [makeTrace(), makeTrace({ scores: [{ name: 'stars', value: 9 }] })] }, limits);
    await expect(ingestTraces(testContext(db), batch)).rejects.toThrow(new AppError('VALIDATION', 'traces[1].scores[0].value must be at most 5 for score "stars" (its config)'));
    const [{ n }] = await db.sql.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM "Trace"`);
    expect({ traces: n, scores: await scoreCount(db) }).toEqual({ traces: 0, scores: 0 });
  });

  it('OTLP: crossroads.score events from the real exporter score their span or a decision; a retry updates, never doubles', async () => {
    const exporter = new OTLPTraceExporter({ url: `${server.origin}/api/otel/v1/traces`, headers: { authorization: 'Bearer otlp-scores-key' } });
    const memory = new InMemorySpanExporter();
    const provider = new NodeTracerProvider({
      resource: resourceFromAttributes({ 'service.name': 'scores-test' }),
      spanProcessors: [new SimpleSpanProcessor(exporter), new SimpleSpanProcessor(memory)],
    });
    const tracer = provider.getTracer('scores-test');
    let traceId = '';
    let toolSpanId = '';
    tracer.startActiveSpan('agent', (root) => {
      traceId = root.spanContext().traceId;
      root.addEvent('crossroads.decision', { 'crossroads.decision.id': 'pick-tool', 'crossroads.decision.type': 'TOOL_SELECTION', 'crossroads.decision.chosen': 'search' });
      root.addEvent('crossroads.score', { 'crossroads.score.name': 'decision.correct', 'crossroads.score.value': true, 'crossroads.score.decision_id': 'pick-tool' });
      const tool = tracer.startSpan('search', {}, otelTrace.setSpan(otelContext.active(), root));
      toolSpanId = tool.spanContext().spanId;
      tool.addEvent('crossroads.score', { 'crossroads.score.name': 'relevance', 'crossroads.score.value': 0.25, 'crossroads.score.comment': 'weak', 'crossroads.score.id': 'rel-1' });
      tool.addEvent('crossroads.score', { 'crossroads.score.name': 'label', 'crossroads.score.value': 'ok', 'crossroads.score.data_type': 'categorical' });
      tool.addEvent('user_feedback', { thumbs: 'up', comment: 'thanks' });
      // Not a valid score (no name): kept as an ordinary event.
      tool.addEvent('crossroads.score', { 'crossroads.score.value': 1 });
      tool.end();
      root.end();
    });
    await provider.forceFlush();
    await provider.shutdown();

    const detail = await getTraceOrThrow(testContext(db), traceId);
    const tool = detail.spans.find((s) => s.id === toolSpanId)!;
    // Written in one statement, so in id order on their span (same createdAt).
    expect(tool.scores?.map((s) => [s.name, s.value, s.dataType, s.source, s.comment]).sort()).toEqual([
      ['label', 'ok', 'CATEGORICAL', 'SDK', null],
      ['relevance', 0.25, 'NUMERIC', 'SDK', 'weak'],
      ['user_feedback', true, 'BOOLEAN', 'FEEDBACK', 'thanks'],
    ]);
    expect(tool.scores?.find((s) => s.name === 'relevance')?.id).toBe('rel-1');
    expect(detail.decisionPoints.find((d) => d.id === 'pick-tool')?.scores?.map((s) => [s.name, s.value])).toEqual([['decision.correct', true]]);
    expect(detail.events.map((e) => [e.name, e.type])).toEqual(expect.arrayContaining([['user_feedback', 'USER_FEEDBACK'], ['crossroads.score', 'CUSTOM']]));
    expect(await scoreCount(db)).toBe(4);

    // The same spans again (an exporter's retry): the same four scores.
    const again = new OTLPTraceExporter({ url: `${server.origin}/api/otel/v1/traces`, headers: { authorization: 'Bearer otlp-scores-key' } });
    const code = await new Promise((resolve) => again.export(memory.getFinishedSpans(), (result) => resolve(result.code)));
    expect(code).toBe(ExportResultCode.SUCCESS);
    await again.shutdown();
    expect(await scoreCount(db)).toBe(4);
    const relevance = (await listScores(testContext(db), parseScoreListParams(new URLSearchParams('name=relevance')))).scores;
    expect(relevance.map((s) => s.id)).toEqual(['rel-1']);
  });

  it('OTLP: gen_ai.evaluation.result events from the real exporter become SDK scores on their span (value NUMERIC, else label CATEGORICAL, explanation as comment)', async () => {
    const exporter = new OTLPTraceExporter({ url: `${server.origin}/api/otel/v1/traces`, headers: { authorization: 'Bearer otlp-scores-key' } });
    const provider = new NodeTracerProvider({ resource: resourceFromAttributes({ 'service.name': 'evals-test' }), spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const tracer = provider.getTracer('evals-test');
    let traceId = '';
    let chatSpanId = '';
    tracer.startActiveSpan('agent', (root) => {
      traceId = root.spanContext().traceId;
      const chat = tracer.startSpan('chat gpt-4o', {}, otelTrace.setSpan(otelContext.active(), root));
      chatSpanId = chat.spanContext().spanId;
      chat.addEvent('gen_ai.evaluation.result', { 'gen_ai.evaluation.name': 'relevance', 'gen_ai.evaluation.score.value': 0.8, 'gen_ai.evaluation.explanation': 'on topic' });
      chat.addEvent('gen_ai.evaluation.result', { 'gen_ai.evaluation.name': 'correctness', 'gen_ai.evaluation.score.label': 'incorrect' });
      // Neither value nor label: an ordinary event.
      chat.addEvent('gen_ai.evaluation.result', { 'gen_ai.evaluation.name': 'empty' });
      chat.end();
      root.end();
    });
    await provider.forceFlush();
    await provider.shutdown();
    const detail = await getTraceOrThrow(testContext(db), traceId);
    const chat = detail.spans.find((s) => s.id === chatSpanId)!;
    expect(chat.scores?.map((s) => [s.name, s.value, s.dataType, s.source, s.comment]).sort()).toEqual([
      ['correctness', 'incorrect', 'CATEGORICAL', 'SDK', null],
      ['relevance', 0.8, 'NUMERIC', 'SDK', 'on topic'],
    ]);
    expect(detail.events.filter((e) => e.name === 'gen_ai.evaluation.result')).toHaveLength(1);
  });
});
