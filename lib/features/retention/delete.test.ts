// Deleting a trace, a session's traces and expired traces takes every child row and every
// derived row with them, and nothing else; counts stay equal to a recount.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import type { Database } from '@/lib/db/open';
import { testDatabases, truncateAll } from '@/test/support/databases';
import { expectDerivedExact } from '@/test/support/derived';
import { makeTrace, uid } from '@/test/support/fixtures';
import {
  DELETE_BATCH_SIZE,
  deleteExpiredTraces,
  deleteSessionTraces,
  deleteTraceOrThrow,
  parseSessionIdParam,
} from './delete';
import { ingestTraces } from '@/lib/features/ingest/ingest';
import { validateIngestBody } from '@/lib/features/ingest/validate';
import { systemContext } from '@/lib/core/context';
import { sql } from '@/lib/db/sql';
import { contextAs, testContext } from '@/test/support/context';

const limits = { maxBatchTraces: 1000, maxChildrenPerTrace: 100 };

describe('parseSessionIdParam', () => {
  const parse = (q: string) => () => parseSessionIdParam(new URLSearchParams(q));
  it('takes exactly one valid sessionId and refuses anything else, naming the parameter', () => {
    expect(parseSessionIdParam(new URLSearchParams('sessionId=s-1'))).toBe('s-1');
    expect(parse('')).toThrow('Missing sessionId parameter');
    expect(parse('sessionId=')).toThrow('Missing sessionId parameter');
    expect(parse('sessionId=a&sessionId=b')).toThrow('Invalid sessionId parameter');
    expect(parse(`sessionId=${'x'.repeat(257)}`)).toThrow('Invalid sessionId parameter');
    expect(parse('sessionId=a%01b')).toThrow('Invalid sessionId parameter');
    expect(parse('sessionId=s&status=ERROR')).toThrow('Unsupported parameter status');
  });
});

describe.each(testDatabases())('deleting traces on $name', ({ open }) => {
  let db: Database;
  let info: MockInstance<typeof console.info>;
  beforeAll(async () => {
    db = await open();
    info = vi.spyOn(console, 'info');
  });
  afterAll(async () => {
    await db.close();
    info.mockRestore();
  });
  beforeEach(async () => {
    await truncateAll(db);
    info.mockClear();
    info.mockImplementation(() => undefined);
  });

  const store = (traces: Record<string, unknown>[]) => ingestTraces(testContext(db), validateIngestBody({ traces }, limits));
  const rows = async (id: string) =>
    (
      await db.sql.query<{ traces: number; names: number; spans: number; events: number; decisions: number }>(
        sql`SELECT (SELECT count(*)::int FROM "Trace" WHERE id = ${id}) AS traces,
                (SELECT count(*)::int FROM "TraceName" WHERE "traceId" = ${id}) AS names,
                (SELECT count(*)::int FROM "Span" WHERE "traceId" = ${id}) AS spans,
                (SELECT count(*)::int FROM "Event" WHERE "traceId" = ${id}) AS events,
                (SELECT count(*)::int FROM "DecisionPoint" WHERE "traceId" = ${id}) AS decisions`,
      )
    )[0];
  const statusCounts = async () =>
    Object.fromEntries(
      (await db.sql.query<{ status: string; n: number }>(sql`SELECT status::text AS status, count::int AS n FROM "TraceStatusTotal"`)).map((r) => [r.status, r.n]),
    );

  it('deletes one trace with its decision points, spans, events, name row and status count; the others stay', async () => {
    const [gone, kept] = [makeTrace({ status: 'ERROR' }), makeTrace({ status: 'ERROR' })];
    await store([gone, kept]);
    expect(await rows(gone.id as string)).toEqual({ traces: 1, names: 1, spans: 2, events: 1, decisions: 1 });
    expect(await statusCounts()).toMatchObject({ ERROR: 2 });

    expect(await deleteTraceOrThrow(testContext(db), gone.id as string)).toBe(1);
    expect(await rows(gone.id as string)).toEqual({ traces: 0, names: 0, spans: 0, events: 0, decisions: 0 });
    expect(await rows(kept.id as string)).toEqual({ traces: 1, names: 1, spans: 2, events: 1, decisions: 1 });
    expect(await statusCounts()).toEqual({ RUNNING: 0, COMPLETED: 0, ERROR: 1 });
    await expectDerivedExact(db);
  });

  it('an unknown id is NOT_FOUND, an impossible one VALIDATION, and neither changes anything', async () => {
    await store([makeTrace()]);
    await expect(deleteTraceOrThrow(testContext(db), 'no-such-trace')).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'Trace not found' });
    await expect(deleteTraceOrThrow(testContext(db), '')).rejects.toMatchObject({ code: 'VALIDATION', message: 'Invalid trace ID' });
    expect(await statusCounts()).toEqual({ RUNNING: 0, COMPLETED: 1, ERROR: 0 });
    expect(info).not.toHaveBeenCalled();
  });

  it("deletes a session's traces in batches, and only that session's", async () => {
    const session = uid('sess');
    const many = DELETE_BATCH_SIZE * 2 + 7;
    // More than two batches, written by SQL (fast), plus a few through ingest with children.
    await db.sql.query(
      sql`INSERT INTO "Trace" (id, name, "sessionId", status, tags, "startedAt")
       SELECT 'bulk-' || g, 'Bulk Run', ${session}, (ARRAY['RUNNING','COMPLETED','ERROR']::"RunStatus"[])[1 + g % 3], '{}', now()
         FROM generate_series(1, ${many}::int) g`,
    );
    await store([makeTrace({ sessionId: session }), makeTrace({ sessionId: session, status: 'RUNNING', endedAt: null })]);
    const other = makeTrace({ sessionId: `${session}-other` });
    const none = makeTrace({ sessionId: null });
    await store([other, none]);

    expect(await deleteSessionTraces(testContext(db), session)).toBe(many + 2);
    const [{ n }] = await db.sql.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM "Trace"`);
    expect(n).toBe(2);
    expect((await rows(other.id as string)).traces).toBe(1);
    expect(await statusCounts()).toEqual({ RUNNING: 0, COMPLETED: 2, ERROR: 0 });
    await expectDerivedExact(db);
    // Idempotent: nothing left is 0, not an error.
    expect(await deleteSessionTraces(testContext(db), session)).toBe(0);
  });

  it('logs who, what and how many, without names or content', async () => {
    const trace = makeTrace({ name: 'private-name', sessionId: 'private-session' });
    await store([trace]);
    const key = { mode: 'protected', keysOnly: false, credential: { kind: 'key', identity: { keyId: 'k1', keyName: 'cleanup', scopes: ['delete'] } } } as const;
    const admin = { userId: 'u1', email: 'admin@example.test', name: 'admin', role: 'admin' } as const;
    await deleteTraceOrThrow(contextAs(db, key), trace.id as string);
    await deleteSessionTraces(contextAs(db, { mode: 'protected', keysOnly: false, credential: { kind: 'session', identity: admin } }), 'private-session');
    const lines = info.mock.calls.map((c) => String(c[0]));
    expect(lines).toEqual([
      expect.stringMatching(new RegExp(`^\\[crossroads\\] deleted 1 trace \\(trace "${trace.id}"\\) by key "cleanup" \\(k1\\) in \\d+ ms$`)),
      expect.stringMatching(/^\[crossroads\] deleted 0 traces \(session "private-session"\) by user admin@example.test in \d+ ms$/),
    ]);
    expect(lines.join('\n')).not.toContain('private-name');
  });

  it('retention deletes the traces that started before the cutoff, oldest first in batches, and keeps the rest', async () => {
    const now = Date.now();
    const ago = (days: number) => new Date(now - days * 86_400_000).toISOString();
    const old = [makeTrace({ startedAt: ago(40), endedAt: null, status: 'RUNNING' }), makeTrace({ startedAt: ago(31), endedAt: ago(31), status: 'ERROR' })];
    const recent = [makeTrace({ startedAt: ago(29), endedAt: ago(29) }), makeTrace({ startedAt: ago(0), endedAt: null, status: 'RUNNING' })];
    await store([...old, ...recent]);
    await db.sql.query(
      sql`INSERT INTO "Trace" (id, name, status, tags, "startedAt")
       SELECT 'ancient-' || g, 'Old', 'COMPLETED', '{}', now() - interval '400 days' - make_interval(secs => g) FROM generate_series(1, 1203) g`,
    );
    const cutoff = new Date(now - 30 * 86_400_000);

    expect(await deleteExpiredTraces(systemContext(db, 'retention'), cutoff, 500)).toBe(1205);
    for (const t of old) expect((await rows(t.id as string)).traces).toBe(0);
    for (const t of recent) expect(await rows(t.id as string)).toEqual({ traces: 1, names: 1, spans: 2, events: 1, decisions: 1 });
    expect(await statusCounts()).toEqual({ RUNNING: 1, COMPLETED: 1, ERROR: 0 });
    await expectDerivedExact(db);
    expect(info.mock.calls.map((c) => String(c[0]))).toEqual([
      expect.stringMatching(new RegExp(`^\\[crossroads\\] deleted 1205 traces \\(started before ${cutoff.toISOString()}\\) by retention in \\d+ ms$`)),
    ]);
    // Nothing more to do: nothing deleted, nothing logged.
    expect(await deleteExpiredTraces(systemContext(db, 'retention'), cutoff)).toBe(0);
    expect(info).toHaveBeenCalledTimes(1);
  });

  it('a statement that deletes nothing leaves the counters unlocked (ingest never waits behind an empty retention run)', async () => {
    if (db.kind !== 'postgres') return; // PGlite has one connection: nothing to wait for.
    await store([makeTrace()]);
    await db.sql.transaction(async (tx) => {
      await tx.query(sql`DELETE FROM "Trace" WHERE "startedAt" < '2000-01-01'`);
      // From another connection: the counters are free while this transaction is open.
      const [{ locked }] = await db.sql.query<{ locked: number }>(
        sql`SELECT count(*)::int AS locked FROM (SELECT 1 FROM "TraceStatusCount" FOR UPDATE SKIP LOCKED) s`,
      );
      expect(locked).toBe(3);
    });
  });
});
