// A JSON batch stored as several statements of one transaction (each a run of whole traces),
// on every test database: stored whole as one statement would store it, or, when any of
// its statements fails, not at all. A statement-level trigger counts the statements.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '@/lib/db/open';
import { testDatabases, truncateAll } from '@/test/support/databases';
import { makeTrace, uid } from '@/test/support/fixtures';
import { testContext } from '@/test/support/context';
import { getTraceJsonOrThrow } from './detail';
import { ingestTraces, type IngestOptions } from '@/lib/features/ingest/ingest';
import { parseIngestBody } from '@/lib/features/ingest/validate';

const LIMITS = { maxBatchTraces: 100, maxChildrenPerTrace: 1000 };
// Every trace a statement of its own.
const EACH: IngestOptions = { statementChars: 1 };

describe.each(testDatabases())('a JSON batch in several statements on $name', ({ open }) => {
  let db: Database;

  beforeAll(async () => {
    db = await open();
    await db.sql.exec(`
      CREATE TABLE "TestStatements" ("n" int);
      CREATE FUNCTION "test_count_statement"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO "TestStatements" VALUES (1);
        RETURN NULL;
      END $$;
      CREATE TRIGGER "Trace_test_count" AFTER INSERT ON "Trace" FOR EACH STATEMENT EXECUTE FUNCTION "test_count_statement"();
      CREATE FUNCTION "test_refuse_trace"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW."name" = 'refused by the database' THEN
          RAISE EXCEPTION 'test trigger refused %', NEW."id";
        END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER "Trace_test_refuse" BEFORE INSERT ON "Trace" FOR EACH ROW EXECUTE FUNCTION "test_refuse_trace"();`);
  });
  afterAll(async () => {
    await db.close();
  });
  beforeEach(async () => {
    await truncateAll(db);
    await db.sql.exec('DELETE FROM "TestStatements"');
  });

  const store = (text: string, options = EACH) => ingestTraces(testContext(db), parseIngestBody(text, LIMITS), options);
  const body = (traces: unknown[]) => JSON.stringify({ traces });
  const statements = async () => Number((await db.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM "TestStatements"'))[0].n);

  // Everything a batch writes, derived rows included.
  const counts = async () =>
    (
      await db.sql.query(`SELECT
        (SELECT count(*)::int FROM "Trace") AS traces,
        (SELECT count(*)::int FROM "DecisionPoint") AS decisions,
        (SELECT count(*)::int FROM "Span") AS spans,
        (SELECT count(*)::int FROM "Event") AS events,
        (SELECT count(*)::int FROM "Score") AS scores,
        (SELECT count(*)::int FROM "SearchDoc") AS "searchDocs",
        (SELECT count(*)::int FROM "SearchQueue") AS queued,
        (SELECT count(*)::int FROM "TraceName") AS names,
        (SELECT coalesce(sum("count"), 0)::int FROM "TraceStatusTotal") AS "statusTotal"`)
    )[0];

  it('stores every trace with its children, scores and search words, one statement per run', async () => {
    const traces = [
      makeTrace(),
      makeTrace({ scores: [{ id: uid('sc'), name: 'quality', value: 0.75, spanId: 's1' }] }),
      makeTrace({ metadata: { note: 'a longer trace of its own words' } }),
    ];
    expect(await store(body(traces))).toBe(3);
    expect(await statements()).toBe(3);
    expect(await counts()).toMatchObject({ traces: 3, decisions: 3, spans: 6, events: 3, scores: 1, searchDocs: 3, names: 3, statusTotal: 3 });
    for (const trace of traces) {
      const got = JSON.parse(await getTraceJsonOrThrow(testContext(db), trace.id as string));
      const { decisionPoints, spans, events, scores, ...top } = trace as Record<string, unknown[]>;
      expect(got).toMatchObject(top);
      expect(got.decisionPoints).toMatchObject(decisionPoints);
      expect(got.spans).toMatchObject(spans);
      expect(got.events).toMatchObject(events);
      if (scores) expect(got.spans[0].scores).toMatchObject([{ name: 'quality', value: 0.75 }]);
    }
    // Each statement wrote its own traces' words, exactly as the indexer would.
    const words = await db.sql.query<{ same: boolean }>(`SELECT d."words" = "crossroads_trace_words"(d."traceId") AS same FROM "SearchDoc" d`);
    expect(words.map((w) => w.same)).toEqual([true, true, true]);
  });

  it('a duplicate id in a later statement is a 409 conflict, and nothing of the batch is stored', async () => {
    const existing = makeTrace();
    await store(body([existing]));
    const before = await counts();
    await db.sql.exec('DELETE FROM "TestStatements"');
    const batch = [makeTrace(), makeTrace({ scores: [{ id: uid('sc'), name: 'quality', value: 1 }] }), makeTrace(), existing];
    await expect(store(body(batch))).rejects.toMatchObject({ code: 'CONFLICT', message: 'Duplicate trace ID detected' });
    // The first three statements ran, then the transaction was rolled back.
    expect(await statements()).toBe(0);
    expect(await counts()).toEqual(before);
  });

  it('any other failure of a later statement stores nothing either', async () => {
    const batch = [makeTrace(), makeTrace(), makeTrace({ name: 'refused by the database' })];
    await expect(store(body(batch))).rejects.toThrow(/test trigger refused/);
    expect(await counts()).toEqual({ traces: 0, decisions: 0, spans: 0, events: 0, scores: 0, searchDocs: 0, queued: 0, names: 0, statusTotal: 0 });
  });

  it('a later statement whose text jsonb refuses: the whole batch is stored again from the validated values', async () => {
    const traces = [makeTrace(), makeTrace(), makeTrace()];
    // A \u0000 escape in a field the API ignores, in the last trace only.
    const text = body(traces).replace(/\}\]\}$/, ',"extra":"a\\u0000b"}]}');
    expect(await store(text)).toBe(3);
    expect(await counts()).toMatchObject({ traces: 3, spans: 6 });
    for (const trace of traces) {
      const got = JSON.parse(await getTraceJsonOrThrow(testContext(db), trace.id as string));
      expect(got.metadata).toEqual({ model: 'gpt-x' });
    }
  });

  it('cuts a request text over the statement limit into runs of whole traces by itself', async () => {
    const pad = 'word '.repeat(100_000);
    const traces = [0, 1, 2].map(() => makeTrace({ metadata: { pad } }));
    expect(await store(body(traces), {})).toBe(3);
    expect(await statements()).toBeGreaterThan(1);
    await db.sql.exec('DELETE FROM "TestStatements"');
    // A small batch stays one statement.
    expect(await store(body([makeTrace(), makeTrace()]), {})).toBe(2);
    expect(await statements()).toBe(1);
  });
});
