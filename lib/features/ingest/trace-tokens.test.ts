// A trace sent whole (JSON API, SOAP) without totalTokens is given the sum of its spans'
// token counts at ingest, so the list, sessions and compare show what the detail page
// does; the client's own total wins, and the total stays exact under concurrent writers.
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/lib/db/open';
import { DEFAULT_MIGRATIONS_DIR } from '@/lib/db/migrate';
import { testDatabases } from '@/test/support/databases';
import { makeTrace } from '@/test/support/fixtures';
import { testContext } from '@/test/support/context';
import { isAppError } from '@/lib/core/errors';
import { listTraces, getTraceOrThrow } from '@/lib/features/traces';
import { getSessionOrThrow, listSessions } from '@/lib/features/sessions';
import { ingestTraces } from './ingest';
import { upsertSpanBatch } from './upsert-spans';
import { validateIngestBody } from './validate';
import type { SpanInput } from './validate';
import type { SpanBatchTrace } from './span-batch';

const hex = (bytes: number) => randomBytes(bytes).toString('hex');
const limits = { maxBatchTraces: 100, maxChildrenPerTrace: 1000 };
const at = (ms: number) => new Date(Date.UTC(2026, 0, 2, 3, 4, 5) + ms).toISOString();

/** A JSON span; `tokens` undefined leaves tokenCount out. */
function jsonSpan(id: string, tokens: number | undefined, over: Record<string, unknown> = {}) {
  return {
    id,
    parentSpanId: id === 'root' ? undefined : 'root',
    name: id,
    type: id === 'root' ? 'AGENT' : 'LLM_CALL',
    status: 'COMPLETED',
    startedAt: at(id === 'root' ? 0 : 10),
    ...(tokens !== undefined && { tokenCount: tokens }),
    ...over,
  };
}

function jsonTrace(id: string, spans: object[], over: Record<string, unknown> = {}) {
  const t = makeTrace({ id, spans, decisionPoints: [], events: [], ...over });
  if (!('totalTokens' in over)) delete t.totalTokens;
  return t;
}

describe.each(testDatabases())('trace token totals at ingest on $name', (target) => {
  let db: Database;
  beforeAll(async () => {
    db = await target.open();
  });
  afterAll(async () => {
    await db?.close();
  });

  const ingest = (traces: object[], statementChars?: number) =>
    ingestTraces(testContext(db), validateIngestBody({ traces }, limits), statementChars ? { statementChars } : {});
  const stored = async (id: string) =>
    (await db.sql.query<{ totalTokens: number | null }>('SELECT "totalTokens" FROM "Trace" WHERE id = $1', [id]))[0]?.totalTokens;
  /** The sum the detail page makes of the stored spans (each model call once). */
  const spanSum = async (id: string) =>
    (
      await db.sql.query<{ tokens: number | null }>(
        `SELECT sum("tokenCount") AS tokens FROM "Span" WHERE "traceId" = $1 AND coalesce("metadata" ->> 'duplicateOf', '') = ''`,
        [id],
      )
    )[0].tokens;

  it('sums the spans when the client sends no total, each model call once, and keeps NULL when no span has a count', async () => {
    const [summed, none, doubled] = [hex(8), hex(8), hex(8)];
    await ingest([
      jsonTrace(summed, [jsonSpan('root', undefined), jsonSpan('a', 30), jsonSpan('b', 12), jsonSpan('c', undefined)]),
      jsonTrace(none, [jsonSpan('root', undefined), jsonSpan('a', undefined)]),
      // A second report of the call "a" (metadata.duplicateOf) is not counted twice.
      jsonTrace(doubled, [jsonSpan('root', undefined), jsonSpan('a', 40), jsonSpan('a2', 40, { metadata: { duplicateOf: 'a' } })]),
    ]);
    expect(await stored(summed)).toBe(42);
    expect(await stored(none)).toBeNull();
    expect(await stored(doubled)).toBe(40);
    // The detail's own figure is the stored one.
    expect((await getTraceOrThrow(testContext(db), summed)).totalTokens).toBe(42);
  });

  it("keeps the client's total, 0 included, over the spans' sum", async () => {
    const [sent, zero] = [hex(8), hex(8)];
    await ingest([
      jsonTrace(sent, [jsonSpan('root', undefined), jsonSpan('a', 30)], { totalTokens: 1000 }),
      jsonTrace(zero, [jsonSpan('root', undefined), jsonSpan('a', 30)], { totalTokens: 0 }),
    ]);
    expect(await stored(sent)).toBe(1000);
    expect(await stored(zero)).toBe(0);
  });

  it('is exact per trace when a batch is stored as several statements', async () => {
    const ids = Array.from({ length: 6 }, () => hex(8));
    const traces = ids.map((id, k) => jsonTrace(id, [jsonSpan('root', 1), ...Array.from({ length: k + 1 }, (_, j) => jsonSpan(`s${j}`, 10 * (j + 1)))]));
    // A few hundred characters a statement: one trace per statement, in one transaction.
    await ingest(traces, 200);
    for (const [k, id] of ids.entries()) {
      expect(await stored(id)).toBe(1 + (10 * (k + 1) * (k + 2)) / 2);
      expect(await stored(id)).toBe(await spanSum(id));
    }
  });

  it('stays exact when the same trace is sent by concurrent requests and by OTLP at once: one writer wins, its total matches its spans', async () => {
    const id = hex(16);
    const versions = [5, 7, 11].map((n) => jsonTrace(id, [jsonSpan('root', undefined), ...Array.from({ length: n }, (_, j) => jsonSpan(`s${j}`, n))]));
    const otlpSpan = (sid: string, tokens: number): SpanInput => ({
      id: sid,
      parentSpanId: null,
      name: 'otlp',
      type: 'LLM_CALL',
      input: null,
      output: null,
      tokenCount: tokens,
      costUsd: null,
      durationMs: 1,
      status: 'COMPLETED',
      statusMessage: null,
      startedAt: new Date(at(0)),
      endedAt: new Date(at(1)),
      metadata: null,
    });
    const otlp = (spans: SpanInput[]): SpanBatchTrace => ({
      traceId: id,
      spans,
      events: [],
      decisionPoints: [],
      root: null,
      provisionalName: 'otlp',
      sessionId: null,
      tags: null,
    });
    const outcomes = await Promise.allSettled([
      ...versions.map((t) => ingest([t])),
      upsertSpanBatch(db.sql, [otlp([otlpSpan('o1', 3), otlpSpan('o2', 4)])], { maxChildrenPerTrace: 1000 }),
      // The same span again, in another request: stored once, counted once.
      upsertSpanBatch(db.sql, [otlp([otlpSpan('o1', 3)])], { maxChildrenPerTrace: 1000 }),
    ]);
    for (const o of outcomes) {
      if (o.status === 'rejected') expect(isAppError(o.reason) && o.reason.code === 'CONFLICT', String(o.reason)).toBe(true);
    }
    const won = outcomes.slice(0, versions.length).filter((o) => o.status === 'fulfilled').length;
    expect(won).toBeLessThanOrEqual(1);
    expect(await stored(id)).toBe(await spanSum(id));
    // The JSON version that won (n spans of n tokens each), or OTLP's two spans, o1 once.
    const winner = outcomes.slice(0, versions.length).findIndex((o) => o.status === 'fulfilled');
    expect(await stored(id)).toBe(winner >= 0 ? [25, 49, 121][winner] : 7);
  });

  it('shows the computed total in the list, the session summaries and the session', async () => {
    const sessionId = `tokens-${hex(6)}`;
    const [a, b] = [hex(8), hex(8)];
    await ingest([
      jsonTrace(a, [jsonSpan('root', undefined), jsonSpan('x', 100), jsonSpan('y', 23)], { sessionId, name: `tokens ${sessionId}` }),
      jsonTrace(b, [jsonSpan('root', undefined), jsonSpan('x', 7)], { sessionId, name: `tokens ${sessionId}` }),
    ]);
    const ctx = testContext(db);
    const list = await listTraces(ctx, { page: 1, limit: 10, sessionId });
    expect(Object.fromEntries(list.traces.map((t) => [t.id, t.totalTokens]))).toEqual({ [a]: 123, [b]: 7 });
    const sessions = await listSessions(ctx, { page: 1, limit: 100 });
    expect(sessions.sessions.find((s) => s.id === sessionId)?.totalTokens).toBe(130);
    const session = await getSessionOrThrow(ctx, sessionId);
    expect(session.session.totalTokens).toBe(130);
    expect(Object.fromEntries(session.traces.map((t) => [t.id, t.totalTokens]))).toEqual({ [a]: 123, [b]: 7 });
  });

  it("gives traces stored before the change their spans' sum once (the migration), leaving the client's totals and OTLP traces alone", async () => {
    const [old, sent, empty] = [hex(8), hex(8), hex(8)];
    await ingest([
      jsonTrace(old, [jsonSpan('root', undefined), jsonSpan('a', 9), jsonSpan('a2', 9, { metadata: { duplicateOf: 'a' } }), jsonSpan('b', 1)]),
      jsonTrace(sent, [jsonSpan('root', undefined), jsonSpan('a', 9)], { totalTokens: 50 }),
      jsonTrace(empty, [jsonSpan('root', undefined)]),
    ]);
    // As stored before: no total.
    await db.sql.query('UPDATE "Trace" SET "totalTokens" = NULL WHERE id = $1', [old]);
    const migration = await readFile(path.join(DEFAULT_MIGRATIONS_DIR, '20261207000000_api_trace_tokens', 'migration.sql'), 'utf8');
    await db.sql.exec(migration);
    expect(await stored(old)).toBe(10);
    expect(await stored(sent)).toBe(50);
    expect(await stored(empty)).toBeNull();
  });
});
