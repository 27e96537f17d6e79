// The review queue on every test database: one item per reviewer, held so that concurrent
// reviewers never get the same one, given back while held, taken over once expired,
// released by a skip, gone once reviewed; the filters and the progress.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { saveScores } from '@/lib/features/scores/save';
import { validateScoresBody } from '@/lib/features/scores/validate';
import type { Database } from '@/lib/db/open';
import { ingestTraces } from '@/lib/features/ingest/ingest';
import { validateIngestBody } from '@/lib/features/ingest/validate';
import { testContext } from '@/test/support/context';
import { testDatabases, truncateAll } from '@/test/support/databases';
import { makeTrace } from '@/test/support/fixtures';
import { asKey, asPerson } from '@/test/support/scores';
import { nextReview, parseReviewFilters, parseSkips } from './';
import { sql } from '@/lib/db/sql';

const limits = { maxBatchTraces: 100, maxChildrenPerTrace: 100 };
const at = (minute: number) => new Date(Date.UTC(2026, 0, 2, 10, minute)).toISOString();
const dp = (id: string, type: string, chosen: unknown) => ({ id, type, chosen, alternatives: ['search', 'sql'], timestamp: at(0), reasoning: `why ${id}` });
const key = (item: { traceId: string; decisionPointId: string } | null) => (item ? `${item.traceId}/${item.decisionPointId}` : null);

describe.each(testDatabases())('the review queue on $name', (target) => {
  let db: Database;
  const filters = (q = '') => parseReviewFilters(new URLSearchParams(q));

  beforeAll(async () => {
    db = await target.open();
  });
  afterAll(async () => {
    await db.close();
  });
  beforeEach(async () => {
    await truncateAll(db);
    await db.sql.exec('TRUNCATE "Score", "ReviewHold"');
    const traces = [
      makeTrace({ id: 'r-1', name: 'support', status: 'COMPLETED', startedAt: at(1), decisionPoints: [dp('d1', 'TOOL_SELECTION', 'search'), dp('d2', 'ROUTING', 'billing')] }),
      makeTrace({ id: 'r-2', name: 'support', status: 'ERROR', startedAt: at(2), decisionPoints: [dp('d1', 'TOOL_SELECTION', 'sql')] }),
      makeTrace({ id: 'r-3', name: 'sales', status: 'COMPLETED', startedAt: at(3), decisionPoints: [dp('d1', 'TOOL_SELECTION', { tool: 'search' })] }),
    ];
    await ingestTraces(testContext(db), validateIngestBody({ traces }, limits));
  });

  it('hands the newest unreviewed item, with what the reviewer needs, and gives it back while held', async () => {
    const ada = asPerson(db, 'ada');
    const first = await nextReview(ada, filters());
    expect(first.item).toMatchObject({
      traceId: 'r-3',
      decisionPointId: 'd1',
      type: 'TOOL_SELECTION',
      reasoning: 'why d1',
      chosenLabel: 'search',
      alternativeLabels: ['search', 'sql'],
      trace: { name: 'sales', status: 'COMPLETED' },
    });
    expect(Date.parse(first.item!.heldUntil) - Date.now()).toBeGreaterThan(4 * 60_000);
    expect(first.progress).toEqual({ reviewed: 0, total: 4 });
    expect(key((await nextReview(ada, filters())).item)).toBe('r-3/d1');
  });

  it('needs read and annotate: a key with ingest alone reads no decision and holds none; a key with both may review', async () => {
    await expect(nextReview(asKey(db, ['ingest']), filters())).rejects.toMatchObject({ code: 'FORBIDDEN', message: 'API key lacks the read scope' });
    await expect(nextReview(asKey(db, ['read']), filters())).rejects.toMatchObject({ code: 'FORBIDDEN', message: 'API key lacks the ingest scope' });
    const [{ holds }] = await db.sql.query<{ holds: number }>(sql`SELECT count(*)::int AS holds FROM "ReviewHold"`);
    expect(holds).toBe(0);
    expect(key((await nextReview(asKey(db, ['ingest', 'read']), filters())).item)).toBe('r-3/d1');
  });

  it('concurrent reviewers never get the same item; a fifth finds none left', async () => {
    const people = ['a', 'b', 'c', 'd', 'e'].map((id) => asPerson(db, id));
    const answers = await Promise.all(people.map((p) => nextReview(p, filters())));
    const keys = answers.map((a) => key(a.item));
    expect(keys.filter((k) => k !== null).sort()).toEqual(['r-1/d1', 'r-1/d2', 'r-2/d1', 'r-3/d1']);
    expect(keys.filter((k) => k === null)).toHaveLength(1);
    const [{ n }] = await db.sql.query<{ n: number }>(sql`SELECT count(DISTINCT "reviewer")::int AS n FROM "ReviewHold"`);
    expect(n).toBe(4);
  });

  it('an expired hold is taken over; a reviewed item leaves the queue; skipping releases an item', async () => {
    const ada = asPerson(db, 'ada');
    const bob = asPerson(db, 'bob');
    expect(key((await nextReview(ada, filters())).item)).toBe('r-3/d1');
    expect(key((await nextReview(bob, filters())).item)).toBe('r-2/d1');
    await db.sql.query(sql`UPDATE "ReviewHold" SET "heldUntil" = now() - interval '1 second' WHERE "reviewer" = 'user:ada'`);
    // Bob's own hold comes first; after skipping it, Ada's expired item is his.
    const skipped = await nextReview(bob, filters(), parseSkips('{"skip": [{"traceId": "r-2", "decisionPointId": "d1"}]}'));
    expect(key(skipped.item)).toBe('r-3/d1');
    // Reviewing it takes it out of everyone's queue.
    await saveScores(bob, validateScoresBody({ scores: [{ traceId: 'r-3', decisionPointId: 'd1', name: 'decision.correct', value: true }] }));
    const after = await nextReview(ada, filters());
    expect(key(after.item)).toBe('r-2/d1');
    expect(after.progress).toEqual({ reviewed: 1, total: 4 });
  });

  it('filters by decision type, chosen option, trace name, status and window', async () => {
    const ada = asPerson(db, 'ada');
    const only = async (q: string) => {
      await db.sql.exec('TRUNCATE "ReviewHold"');
      const answer = await nextReview(ada, filters(q));
      return [key(answer.item), answer.progress.total];
    };
    expect(await only('type=ROUTING')).toEqual(['r-1/d2', 1]);
    expect(await only('type=TOOL_SELECTION&option=search')).toEqual(['r-3/d1', 2]);
    expect(await only('name=support&status=ERROR')).toEqual(['r-2/d1', 1]);
    expect(await only(`from=${at(1)}&to=${at(2)}`)).toEqual(['r-1/d1', 2]);
    expect(await only('name=nobody')).toEqual([null, 0]);
    expect(() => filters('type=GUESS')).toThrow('Invalid type parameter: must be one of TOOL_SELECTION, ROUTING, RETRY, ESCALATION, MEMORY_RETRIEVAL, PLANNING, CUSTOM');
    expect(() => filters('status=DONE')).toThrow('Invalid status parameter: must be one of RUNNING, COMPLETED, ERROR');
    expect(() => parseSkips('{"skip": {}}')).toThrow('skip must be an array');
    expect(() => parseSkips('{"skip": [{"traceId": 1}]}')).toThrow('skip[0] must be {"traceId", "decisionPointId"} with string values');
  });

  it('finds the same items whether many are left (a walk of the traces) or few (all of them read)', async () => {
    // 2,100 more traces, newer than the three above, one decision each (every 500th chose
    // sql): more unreviewed decisions than the queue reads whole, then fewer once 1,000 are reviewed.
    await db.sql.exec(`
      INSERT INTO "Trace" ("id", "name", "status", "tags", "startedAt", "decisionPointCount")
      SELECT 'bulk-' || i, 'bulk', 'COMPLETED', '{}', TIMESTAMPTZ '2026-01-03T00:00:00Z' + i * INTERVAL '1 minute', 1 FROM generate_series(1, 2100) i;
      INSERT INTO "DecisionPoint" ("traceId", "id", "type", "chosen", "alternatives", "timestamp")
      SELECT 'bulk-' || i, 'd1', 'TOOL_SELECTION', to_jsonb(CASE WHEN i % 500 = 0 THEN 'sql' ELSE 'search' END), '["search","sql"]'::jsonb,
             TIMESTAMPTZ '2026-01-03T00:00:00Z' + i * INTERVAL '1 minute' FROM generate_series(1, 2100) i`);
    const ada = asPerson(db, 'ada');
    const firsts = async () => {
      const answers: Array<string | null> = [];
      for (const q of ['', 'type=TOOL_SELECTION&option=sql', 'name=support', `to=2026-01-03T00:00:00.000Z`, 'from=2026-01-03T10:00:00.000Z&to=2026-01-03T16:00:00.000Z', 'type=ROUTING&name=bulk']) {
        await db.sql.exec('TRUNCATE "ReviewHold"');
        answers.push(key((await nextReview(ada, filters(q))).item));
      }
      return answers;
    };
    expect(await firsts()).toEqual(['bulk-2100/d1', 'bulk-2000/d1', 'r-2/d1', 'r-3/d1', 'bulk-959/d1', null]);
    await db.sql.exec(`
      INSERT INTO "Score" ("id", "traceId", "decisionPointId", "name", "dataType", "value", "source", "authorKind", "authorName")
      SELECT 'rev-' || i, 'bulk-' || i, 'd1', 'decision.correct', 'BOOLEAN', 1, 'API', 'key', 'test' FROM generate_series(1100, 2099) i`);
    const [{ left }] = await db.sql.query<{ left: number }>(sql`SELECT count(*)::int AS left FROM "DecisionPoint" WHERE "reviews" = 0`);
    expect(left).toBe(1_104);
    expect(await firsts()).toEqual(['bulk-2100/d1', 'bulk-1000/d1', 'r-2/d1', 'r-3/d1', 'bulk-959/d1', null]);
  });
});
