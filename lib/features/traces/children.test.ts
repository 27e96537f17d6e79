import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/lib/db/open';
import { testDatabases } from '@/test/support/databases';
import { makeTrace, uid } from '@/test/support/fixtures';
import {
  getDecisionPointOrThrow,
  getEventOrThrow,
  getSpanOrThrow,
  queryDecisionPoints,
  queryEvents,
  querySpans,
} from './children';
import { ingestTraces } from '@/lib/features/ingest/ingest';
import { validateIngestBody } from '@/lib/features/ingest/validate';
import { testContext } from '@/test/support/context';

const limits = { maxBatchTraces: 100, maxChildrenPerTrace: 10_000 };

describe.each(testDatabases())('trace children on $name', (target) => {
  let database: Database;
  const traceId = uid('children');

  beforeAll(async () => {
    database = await target.open();
    const trace = makeTrace({
      id: traceId,
      spans: [
        { id: 's3', parentSpanId: 's1', name: 'tool', type: 'TOOL_CALL', status: 'ERROR', startedAt: '2026-01-02T03:04:06.000Z' },
        { id: 's1', name: 'agent', type: 'AGENT', status: 'COMPLETED', startedAt: '2026-01-02T03:04:05.000Z' },
        { id: 's2', parentSpanId: 's1', name: 'llm', type: 'LLM_CALL', status: 'COMPLETED', startedAt: '2026-01-02T03:04:05.500Z', input: { prompt: 'hi' } },
        // Same start as s2: the id breaks the tie.
        { id: 's0', parentSpanId: 's1', name: 'llm2', type: 'LLM_CALL', status: 'COMPLETED', startedAt: '2026-01-02T03:04:05.500Z' },
      ],
      decisionPoints: [
        { id: 'd2', type: 'ROUTING', alternatives: [], timestamp: '2026-01-02T03:04:06.000Z' },
        { id: 'd1', type: 'TOOL_SELECTION', alternatives: ['a', 'b'], chosen: 'a', timestamp: '2026-01-02T03:04:05.000Z' },
      ],
      events: [
        { id: 'e2', spanId: 's3', type: 'ERROR', name: 'boom', timestamp: '2026-01-02T03:04:06.100Z' },
        { id: 'e1', spanId: 's2', type: 'RETRY', name: 'again', timestamp: '2026-01-02T03:04:05.600Z' },
      ],
    });
    // A second trace whose children reuse the same ids: reads must stay within one trace.
    const other = makeTrace({ id: uid('other') });
    await ingestTraces(testContext(database), validateIngestBody({ traces: [trace, other] }, limits));
  });

  afterAll(async () => {
    await database?.close();
  });

  it('reads one span, decision point and event by trace and id', async () => {
    const span = await getSpanOrThrow(testContext(database), traceId, 's2');
    expect(span).toMatchObject({ id: 's2', traceId, name: 'llm', type: 'LLM_CALL', input: { prompt: 'hi' }, endedAt: null });
    const decision = await getDecisionPointOrThrow(testContext(database), traceId, 'd1');
    expect(decision).toMatchObject({ id: 'd1', traceId, chosen: 'a', alternatives: ['a', 'b'] });
    const event = await getEventOrThrow(testContext(database), traceId, 'e2');
    expect(event).toMatchObject({ id: 'e2', spanId: 's3', type: 'ERROR', timestamp: '2026-01-02T03:04:06.100Z' });
  });

  it('reports a missing child as NOT_FOUND and a bad id as VALIDATION', async () => {
    await expect(getSpanOrThrow(testContext(database), traceId, 'nope')).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'Span not found' });
    await expect(getDecisionPointOrThrow(testContext(database), 'no-trace', 'd1')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(getEventOrThrow(testContext(database), traceId, 'e9')).rejects.toMatchObject({ message: 'Event not found' });
    await expect(getSpanOrThrow(testContext(database), '', 's1')).rejects.toMatchObject({ code: 'VALIDATION' });
  });

  it('lists spans by startedAt ascending with id as tie-break, and filters them', async () => {
    const all = await querySpans(testContext(database), { traceId, limit: 100 });
    expect(all.map((s) => s.id)).toEqual(['s1', 's0', 's2', 's3']);
    expect((await querySpans(testContext(database), { traceId, type: 'LLM_CALL', limit: 100 })).map((s) => s.id)).toEqual(['s0', 's2']);
    expect((await querySpans(testContext(database), { traceId, status: 'ERROR', limit: 100 })).map((s) => s.id)).toEqual(['s3']);
    expect((await querySpans(testContext(database), { traceId, parentSpanId: 's1', limit: 2 })).map((s) => s.id)).toEqual(['s0', 's2']);
  });

  it('lists decision points and events by timestamp and filters them', async () => {
    expect((await queryDecisionPoints(testContext(database), { traceId, limit: 10 })).map((d) => d.id)).toEqual(['d1', 'd2']);
    expect((await queryDecisionPoints(testContext(database), { traceId, type: 'ROUTING', limit: 10 })).map((d) => d.id)).toEqual(['d2']);
    expect((await queryEvents(testContext(database), { traceId, limit: 10 })).map((e) => e.id)).toEqual(['e1', 'e2']);
    expect((await queryEvents(testContext(database), { traceId, spanId: 's3', limit: 10 })).map((e) => e.id)).toEqual(['e2']);
    expect(await queryEvents(testContext(database), { traceId, type: 'FALLBACK', limit: 10 })).toEqual([]);
    expect(await queryEvents(testContext(database), { traceId: 'unknown-trace', limit: 10 })).toEqual([]);
  });

  it('refuses unknown enum values and bad limits, naming them', async () => {
    await expect(querySpans(testContext(database), { traceId, type: 'BOGUS', limit: 1 })).rejects.toMatchObject({
      code: 'VALIDATION',
      message: expect.stringContaining('span type'),
    });
    await expect(querySpans(testContext(database), { traceId, status: 'DONE', limit: 1 })).rejects.toMatchObject({ code: 'VALIDATION' });
    await expect(queryDecisionPoints(testContext(database), { traceId, type: 'X', limit: 1 })).rejects.toMatchObject({ code: 'VALIDATION' });
    await expect(queryEvents(testContext(database), { traceId, type: 'X', limit: 1 })).rejects.toMatchObject({ code: 'VALIDATION' });
    await expect(querySpans(testContext(database), { traceId, limit: 0 })).rejects.toMatchObject({ code: 'VALIDATION' });
  });
});
