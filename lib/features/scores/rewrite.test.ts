// A score given again by id: who may rewrite it (its author, admins, keys with delete; a
// trace batch only its own key's), that it never changes target, and that a refusal
// changes nothing, on every test database.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ServiceContext } from '@/lib/core/context';
import { AppError } from '@/lib/core/errors';
import { sql } from '@/lib/db/sql';
import type { Database } from '@/lib/db/open';
import { ingestTraces } from '@/lib/features/ingest/ingest';
import { validateIngestBody } from '@/lib/features/ingest/validate';
import { testContext } from '@/test/support/context';
import { testDatabases, truncateAll } from '@/test/support/databases';
import { makeTrace } from '@/test/support/fixtures';
import { asKey, asPerson, scoreCount } from '@/test/support/scores';
import { mayRewrite } from './author';
import { deleteScore, saveScores, validateScoresBody } from './';
import { REWRITE_RULE } from './rewrite';

const limits = { maxBatchTraces: 100, maxChildrenPerTrace: 100 };

describe('mayRewrite', () => {
  it.each([
    ['its author', 'user:a', 'user:a', false, true],
    ['another person', 'user:a', 'user:b', false, false],
    ['a key, its own', 'key:k1', 'key:k1', false, true],
    ['a key, a person\'s', 'user:a', 'key:k1', false, false],
    ['anyone, a score of no known author', null, null, false, false],
    ['whoever may delete any score', 'user:a', 'key:k2', true, true],
    ['whoever may delete any, a score of no known author', null, 'user:admin', true, true],
  ])('%s', (_name, stored, writer, anyAuthor, allowed) => {
    expect(mayRewrite(stored, writer, anyAuthor)).toBe(allowed);
  });
});

describe.each(testDatabases())('rewriting a score by id on $name', (target) => {
  let db: Database;
  const save = (ctx: ServiceContext, scores: unknown[]) => saveScores(ctx, validateScoresBody({ scores }));
  const stored = async (id: string) =>
    (await db.sql.query<Record<string, unknown>>(`SELECT "traceId", "spanId", "value", "authorName", "authorKey" FROM "Score" WHERE "id" = $1`, [id]))[0];
  const refusal = async (promise: Promise<unknown>) => {
    const err = await promise.then(() => null, (e: unknown) => e);
    if (!(err instanceof AppError)) throw new Error(`expected an AppError, got ${String(err)}`);
    return { code: err.code, message: err.message };
  };

  beforeAll(async () => {
    db = await target.open();
  });
  afterAll(async () => {
    await db.close();
  });
  beforeEach(async () => {
    await truncateAll(db);
    await db.sql.exec('TRUNCATE "Score"');
    await ingestTraces(testContext(db), validateIngestBody({ traces: [makeTrace({ id: 't-1' }), makeTrace({ id: 't-2' })] }, limits));
    await save(asPerson(db, 'ada'), [{ id: 'ada-1', traceId: 't-1', name: 'quality', value: 1 }]);
    await save(asPerson(db, 'root', 'admin'), [{ id: 'admin-1', traceId: 't-1', name: 'quality', value: 2 }]);
    await save(asKey(db, ['ingest'], 'ci', 'k-1'), [{ id: 'key-1', traceId: 't-1', name: 'quality', value: 3 }]);
  });

  it("a viewer or an ingest key giving another author's id is a 403 naming the rule, and nothing changes", async () => {
    const before = await Promise.all(['ada-1', 'admin-1', 'key-1'].map(stored));
    const forbidden = (id: string, i = 0) => ({ code: 'FORBIDDEN', message: `scores[${i}].id "${id}" is another author's score: ${REWRITE_RULE}` });
    expect(await refusal(save(asPerson(db, 'eve'), [{ id: 'ada-1', traceId: 't-1', name: 'quality', value: 0 }]))).toEqual(forbidden('ada-1'));
    const other = asKey(db, ['ingest'], 'other', 'k-2');
    expect(await refusal(save(other, [{ id: 'new', traceId: 't-1', name: 'q', value: 1 }, { id: 'admin-1', traceId: 't-1', name: 'quality', value: 0 }]))).toEqual(forbidden('admin-1', 1));
    expect(await refusal(save(asPerson(db, 'ada'), [{ id: 'key-1', traceId: 't-1', name: 'quality', value: 0 }]))).toEqual(forbidden('key-1'));
    expect(await Promise.all(['ada-1', 'admin-1', 'key-1'].map(stored))).toEqual(before);
    expect(await scoreCount(db)).toBe(3);
    // Nor did the refused writer become the author who may delete it.
    await expect(deleteScore(asPerson(db, 'eve'), 'ada-1')).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });

  it('its author, an admin and a key with delete may rewrite it; the writer becomes its author', async () => {
    await save(asPerson(db, 'ada'), [{ id: 'ada-1', traceId: 't-1', name: 'quality', value: 5 }]);
    await save(asKey(db, ['ingest'], 'ci renamed', 'k-1'), [{ id: 'key-1', traceId: 't-1', name: 'quality', value: 6 }]);
    expect([await stored('ada-1'), await stored('key-1')]).toMatchObject([{ value: 5, authorKey: 'user:ada' }, { value: 6, authorKey: 'key:k-1' }]);
    await save(asPerson(db, 'root', 'admin'), [{ id: 'ada-1', traceId: 't-1', name: 'quality', value: 7 }]);
    expect(await stored('ada-1')).toMatchObject({ value: 7, authorName: 'person root', authorKey: 'user:root' });
    await save(asKey(db, ['ingest', 'delete'], 'moderator', 'k-9'), [{ id: 'admin-1', traceId: 't-1', name: 'quality', value: 8 }]);
    expect(await stored('admin-1')).toMatchObject({ value: 8, authorName: 'moderator', authorKey: 'key:k-9' });
  });

  it('never changes target: another trace, a span of the same trace or a session is a 409 naming it, for anyone', async () => {
    const admin = asPerson(db, 'root', 'admin');
    const conflict = (to: string) => ({ code: 'CONFLICT', message: `scores[0].id "admin-1" is a score of trace "t-1": a score never changes its target; give this one another id${to}` });
    expect(await refusal(save(admin, [{ id: 'admin-1', traceId: 't-2', name: 'quality', value: 0 }]))).toEqual(conflict(''));
    expect(await refusal(save(admin, [{ id: 'admin-1', traceId: 't-1', spanId: 's1', name: 'quality', value: 0 }]))).toEqual(conflict(''));
    expect(await stored('admin-1')).toMatchObject({ traceId: 't-1', spanId: null, value: 2 });
  });

  it('a trace batch that would move a stored score to its trace is refused whole, nothing stored', async () => {
    const batch = (id: string, scoreId: string) => validateIngestBody({ traces: [makeTrace({ id, scores: [{ id: scoreId, name: 'quality', value: 9 }] })] }, limits);
    const key = asKey(db, ['ingest'], 'ci', 'k-1');
    expect(await refusal(ingestTraces(key, batch('t-3', 'key-1')))).toEqual({
      code: 'CONFLICT',
      message: 'traces[0].scores[0].id "key-1" is a score of trace "t-1": a score never changes its target; give this one another id',
    });
    const deleter = asKey(db, ['ingest', 'delete'], 'moderator', 'k-9');
    await ingestTraces(deleter, batch('t-4', 'mine'));
    expect(await refusal(ingestTraces(key, batch('t-5', 'ada-1')))).toMatchObject({ code: 'CONFLICT' });
    const [{ n }] = await db.sql.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM "Trace" WHERE "id" IN ('t-3', 't-5')`);
    expect(n).toBe(0);
    expect(await stored('key-1')).toMatchObject({ traceId: 't-1', value: 3 });
  });
});
