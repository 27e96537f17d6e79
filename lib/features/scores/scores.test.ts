// Scores on every test database: each target type and its stored shape, idempotent ids,
// configs, the list's filters and paging, who may delete, targets that are not stored,
// and scores going with their trace or session.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '@/lib/core/errors';
import type { Database } from '@/lib/db/open';
import { sql } from '@/lib/db/sql';
import { deleteSessionTraces, deleteTraceOrThrow } from '@/lib/features/retention/delete';
import { getTraceOrThrow } from '@/lib/features/traces/detail';
import { ingestTraces } from '@/lib/features/ingest/ingest';
import { validateIngestBody } from '@/lib/features/ingest/validate';
import { testContext } from '@/test/support/context';
import { testDatabases, truncateAll } from '@/test/support/databases';
import { makeTrace, uid } from '@/test/support/fixtures';
import { asKey, asPerson, scoreCount } from '@/test/support/scores';
import {
  createScoreConfig,
  deleteScore,
  deleteScoreConfig,
  listScoreConfigs,
  listScores,
  parseConfigBody,
  parseConfigPatch,
  parseScoreListParams,
  saveScores,
  updateScoreConfig,
  validateScoresBody,
} from './';

const limits = { maxBatchTraces: 100, maxChildrenPerTrace: 100 };

async function thrown(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('expected an AppError');
}

describe.each(testDatabases())('scores on $name', (target) => {
  let db: Database;
  let traceId: string;
  let sessionId: string;
  const save = (ctx: ReturnType<typeof asKey>, scores: unknown[]) => saveScores(ctx, validateScoresBody({ scores }));

  beforeAll(async () => {
    db = await target.open();
  });
  afterAll(async () => {
    await db.close();
  });
  beforeEach(async () => {
    await truncateAll(db);
    await db.sql.query(sql`TRUNCATE "Score", "ScoreConfig"`);
    traceId = uid('scored');
    sessionId = uid('session');
    await ingestTraces(testContext(db), validateIngestBody({ traces: [makeTrace({ id: traceId, sessionId })] }, limits));
  });

  it('stores a score on each kind of target, with only that target set, its source and author from the writer', async () => {
    const key = asKey(db, ['ingest', 'read'], 'ci key');
    expect(
      await save(key, [
        { id: 'on-trace', traceId, name: 'quality', value: 0.8, comment: 'good', metadata: { judge: 'gpt' } },
        { id: 'on-span', traceId, spanId: 's2', name: 'helpful', value: true },
        { id: 'on-decision', traceId, decisionPointId: 'd1', name: 'decision.correct', value: false },
        { id: 'on-session', sessionId, name: 'tone', value: 'friendly', dataType: 'CATEGORICAL' },
      ]),
    ).toBe(4);
    const { scores, total } = await listScores(testContext(db), parseScoreListParams(new URLSearchParams('limit=100')));
    expect(total).toBe(4);
    const byId = Object.fromEntries(scores.map((s) => [s.id, s]));
    expect(byId['on-trace']).toEqual({
      id: 'on-trace',
      traceId,
      spanId: null,
      decisionPointId: null,
      sessionId: null,
      name: 'quality',
      value: 0.8,
      dataType: 'NUMERIC',
      comment: 'good',
      source: 'API',
      author: { kind: 'key', name: 'ci key' },
      metadata: { judge: 'gpt' },
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updatedAt: expect.stringMatching(/Z$/),
    });
    expect(byId['on-span']).toMatchObject({ traceId, spanId: 's2', decisionPointId: null, sessionId: null, value: true, dataType: 'BOOLEAN' });
    expect(byId['on-decision']).toMatchObject({ traceId, spanId: null, decisionPointId: 'd1', value: false, dataType: 'BOOLEAN' });
    expect(byId['on-session']).toMatchObject({ traceId: null, spanId: null, decisionPointId: null, sessionId, value: 'friendly', dataType: 'CATEGORICAL' });

    // The detail carries them on the trace, the span and the decision point; other levels have no key.
    const detail = await getTraceOrThrow(testContext(db), traceId);
    expect(detail.scores?.map((s) => s.id)).toEqual(['on-trace']);
    expect(detail.spans.find((s) => s.id === 's2')?.scores?.map((s) => s.id)).toEqual(['on-span']);
    expect('scores' in detail.spans.find((s) => s.id === 's1')!).toBe(false);
    expect(detail.decisionPoints[0].scores?.map((s) => s.value)).toEqual([false]);
  });

  it('names the author: a person annotates, keys from the environment are API_KEYS', async () => {
    await save(asPerson(db, 'u-ada', 'viewer', 'Ada'), [{ id: 'a', traceId, name: 'n', value: 1 }]);
    await save(asKey(db, ['ingest'], null as unknown as string, null), [{ id: 'b', traceId, name: 'n', value: 2 }]);
    const { scores } = await listScores(testContext(db), parseScoreListParams(new URLSearchParams('')));
    const byId = Object.fromEntries(scores.map((s) => [s.id, s]));
    expect(byId.a).toMatchObject({ source: 'ANNOTATION', author: { kind: 'user', name: 'Ada' } });
    expect(byId.b).toMatchObject({ source: 'API', author: { kind: 'key', name: 'API_KEYS' } });
  });

  it('a client id makes a write idempotent: the same id again updates the score, never a second one', async () => {
    const key = asKey(db);
    await save(key, [{ id: 'same', traceId, name: 'quality', value: 1 }]);
    const [first] = (await listScores(testContext(db), parseScoreListParams(new URLSearchParams('')))).scores;
    expect(await save(key, [{ id: 'same', traceId, name: 'quality', value: 3, comment: 'second look' }])).toBe(1);
    const { scores, total } = await listScores(testContext(db), parseScoreListParams(new URLSearchParams('')));
    expect(total).toBe(1);
    expect(scores[0]).toMatchObject({ id: 'same', spanId: null, value: 3, comment: 'second look', createdAt: first.createdAt });
    expect(Date.parse(scores[0].updatedAt)).toBeGreaterThanOrEqual(Date.parse(first.updatedAt));
    // Without an id every write is a new score.
    await save(key, [{ traceId, name: 'quality', value: 1 }]);
    await save(key, [{ traceId, name: 'quality', value: 1 }]);
    expect(await scoreCount(db)).toBe(3);
  });

  it.each([
    [{ traceId: 'no-such-trace', name: 'n', value: 1 }, 'scores[1].traceId: trace "no-such-trace" not found'],
    [{ traceId: '$T', spanId: 'nope', name: 'n', value: 1 }, 'scores[1].spanId: span "nope" not found in trace "$T"'],
    [{ traceId: '$T', decisionPointId: 'nope', name: 'n', value: 1 }, 'scores[1].decisionPointId: decision point "nope" not found in trace "$T"'],
    [{ sessionId: 'no-such-session', name: 'n', value: 1 }, 'scores[1].sessionId: session "no-such-session" not found (no stored trace has it)'],
  ])('a target that is not stored is a 404 naming it, and nothing of the request is stored (%#)', async (missing, message) => {
    const fill = (v: unknown) => JSON.parse(JSON.stringify(v).replaceAll('$T', traceId)) as unknown;
    const err = await thrown(save(asKey(db), [{ id: 'ok-1', traceId, name: 'n', value: 1 }, fill(missing), { id: 'ok-2', traceId, name: 'n', value: 2 }]));
    expect({ code: err.code, message: err.message }).toEqual({ code: 'NOT_FOUND', message: message.replaceAll('$T', traceId) });
    expect(await scoreCount(db)).toBe(0);
  });

  it('refuses writers without the right: a read-only key; a person may annotate, keys need ingest', async () => {
    const err = await thrown(save(asKey(db, ['read']), [{ traceId, name: 'n', value: 1 }]));
    expect({ code: err.code, message: err.message }).toEqual({ code: 'FORBIDDEN', message: 'API key lacks the ingest scope' });
    expect(await save(asPerson(db, 'u-viewer'), [{ traceId, name: 'n', value: 1 }])).toBe(1);
  });

  describe('configs', () => {
    it('a score must fit its name\'s config; the messages name the rule', async () => {
      const admin = asPerson(db, 'u-admin', 'admin');
      await createScoreConfig(admin, parseConfigBody(JSON.stringify({ name: 'tone', dataType: 'CATEGORICAL', categories: ['friendly', 'curt'] })));
      await createScoreConfig(admin, parseConfigBody(JSON.stringify({ name: 'stars', dataType: 'NUMERIC', min: 1, max: 5, description: 'Five stars' })));
      await createScoreConfig(admin, parseConfigBody(JSON.stringify({ name: 'ok', dataType: 'BOOLEAN' })));
      const key = asKey(db);
      const cases: Array<[unknown, string]> = [
        [{ traceId, name: 'tone', value: 'rude' }, 'scores[0].value "rude" is not one of the categories of score "tone": friendly, curt'],
        [{ traceId, name: 'stars', value: 0 }, 'scores[0].value must be at least 1 for score "stars" (its config)'],
        [{ traceId, name: 'stars', value: 6 }, 'scores[0].value must be at most 5 for score "stars" (its config)'],
        [{ traceId, name: 'ok', value: 1 }, 'scores[0].value must be a boolean: score "ok" is BOOLEAN by its config'],
        [{ traceId, name: 'ok', value: 1, dataType: 'NUMERIC' }, 'scores[0].dataType is NUMERIC, but score "ok" is BOOLEAN by its config'],
      ];
      for (const [score, message] of cases) {
        const err = await thrown(save(key, [score]));
        expect({ code: err.code, message: err.message }).toEqual({ code: 'VALIDATION', message });
      }
      expect(await save(key, [{ traceId, name: 'tone', value: 'curt' }, { traceId, name: 'stars', value: 5 }, { traceId, name: 'ok', value: true }])).toBe(3);
      expect(await scoreCount(db)).toBe(3);
    });

    it('admins create, list, change and delete them; names are unique; people and keys may only read them', async () => {
      const admin = asPerson(db, 'u-admin', 'admin');
      const made = await createScoreConfig(admin, parseConfigBody('{"name":"stars","dataType":"NUMERIC","min":1,"max":5}'));
      expect(made).toMatchObject({ name: 'stars', dataType: 'NUMERIC', categories: [], min: 1, max: 5, description: null });
      const dup = await thrown(createScoreConfig(admin, parseConfigBody('{"name":"stars","dataType":"BOOLEAN"}')));
      expect({ code: dup.code, message: dup.message }).toEqual({ code: 'CONFLICT', message: 'A score config named "stars" already exists' });
      const changed = await updateScoreConfig(admin, made.id, parseConfigPatch('{"max":10,"description":"Ten now"}'));
      expect(changed).toMatchObject({ min: 1, max: 10, description: 'Ten now' });
      const bad = await thrown(updateScoreConfig(admin, made.id, parseConfigPatch('{"min":11}')));
      expect(bad.message).toBe('min must not be greater than max');
      expect((await listScoreConfigs(asPerson(db, 'u-viewer'))).map((c) => c.name)).toEqual(['stars']);
      const viewer = await thrown(createScoreConfig(asPerson(db, 'u-viewer'), parseConfigBody('{"name":"x","dataType":"BOOLEAN"}')));
      expect({ code: viewer.code, message: viewer.message }).toEqual({ code: 'FORBIDDEN', message: 'This needs the admin role' });
      const keyErr = await thrown(deleteScoreConfig(asKey(db, ['ingest', 'read', 'delete']), made.id));
      expect(keyErr.message).toBe('API key lacks the admin scope');
      await deleteScoreConfig(admin, made.id);
      expect(await listScoreConfigs(admin)).toEqual([]);
      expect((await thrown(deleteScoreConfig(admin, made.id))).code).toBe('NOT_FOUND');
      expect((await thrown(updateScoreConfig(admin, made.id, {}))).code).toBe('NOT_FOUND');
    });

    it.each([
      ['{"name":"x"}', 'dataType is invalid (missing): must be one of NUMERIC, CATEGORICAL, BOOLEAN'],
      ['{"name":"","dataType":"BOOLEAN"}', 'name is required and must be a non-empty string'],
      [JSON.stringify({ name: 'n'.repeat(201), dataType: 'BOOLEAN' }), 'name must be at most 200 characters'],
      ['{"name":"x","dataType":"BOOLEAN","categories":["a"]}', 'categories apply to CATEGORICAL scores only'],
      ['{"name":"x","dataType":"BOOLEAN","min":1}', 'min and max apply to NUMERIC scores only'],
      ['{"name":"x","dataType":"CATEGORICAL","categories":["a","a"]}', 'categories[1] "a" appears more than once'],
      ['{"name":"x","dataType":"NUMERIC","min":"1"}', 'min must be a finite number or null'],
      ['{"name":"x","dataType":"NUMERIC","colour":"red"}', 'Unknown field colour: a score config has name, dataType, categories, min, max, description'],
      ['[1]', 'The body must be a JSON object'],
      ['{', 'Invalid JSON in request body'],
    ])('a config body %s is refused: %s', (body, message) => {
      expect(() => parseConfigBody(body)).toThrow(message);
    });
  });

  describe('the list', () => {
    beforeEach(async () => {
      const key = asKey(db);
      await save(key, [{ id: 'k1', traceId, name: 'quality', value: 0.2 }]);
      await save(asPerson(db, 'u-p'), [{ id: 'p1', traceId, spanId: 's1', name: 'quality', value: 0.9 }]);
      await save(key, [{ id: 'k2', traceId, decisionPointId: 'd1', name: 'decision.correct', value: true }]);
      await save(key, [{ id: 'k3', sessionId, name: 'tone', value: 'curt' }]);
      // Another session's trace and score, never in this session's answers.
      const other = uid('other');
      await ingestTraces(testContext(db), validateIngestBody({ traces: [makeTrace({ id: other, sessionId: 'elsewhere' })] }, limits));
      await save(key, [{ id: 'o1', traceId: other, name: 'quality', value: 0.5 }]);
    });
    const ids = async (query: string) => (await listScores(testContext(db), parseScoreListParams(new URLSearchParams(query)))).scores.map((s) => s.id);

    it('is newest first and filters by every parameter', async () => {
      expect(await ids('')).toEqual(['o1', 'k3', 'k2', 'p1', 'k1']);
      expect(await ids(`traceId=${traceId}`)).toEqual(['k2', 'p1', 'k1']);
      expect(await ids('spanId=s1')).toEqual(['p1']);
      expect(await ids('decisionPointId=d1')).toEqual(['k2']);
      expect(await ids(`sessionId=${sessionId}`)).toEqual(['k3', 'k2', 'p1', 'k1']);
      expect(await ids('name=quality')).toEqual(['o1', 'p1', 'k1']);
      expect(await ids('source=ANNOTATION')).toEqual(['p1']);
      expect(await ids('dataType=BOOLEAN')).toEqual(['k2']);
      expect(await ids('minValue=0.5')).toEqual(['o1', 'k2', 'p1']);
      expect(await ids('maxValue=0.5&name=quality')).toEqual(['o1', 'k1']);
      expect(await ids('from=2000-01-01T00:00:00Z&to=2100-01-01T00:00:00Z&name=tone')).toEqual(['k3']);
      expect(await ids('to=2000-01-01T00:00:00Z')).toEqual([]);
    });

    it('pages like the trace list, with its messages', async () => {
      const page = await listScores(testContext(db), parseScoreListParams(new URLSearchParams('limit=2&page=2')));
      expect({ ids: page.scores.map((s) => s.id), total: page.total, page: page.page, limit: page.limit, totalPages: page.totalPages }).toEqual({
        ids: ['k2', 'p1'],
        total: 5,
        page: 2,
        limit: 2,
        totalPages: 3,
      });
      for (const [query, message] of [
        ['page=0', 'Invalid page parameter'],
        ['page=x', 'Invalid page parameter'],
        ['limit=101', 'Invalid limit parameter'],
        ['limit=0', 'Invalid limit parameter'],
        ['source=HUMAN', 'Invalid source parameter: must be one of API, ANNOTATION, SDK, FEEDBACK, EVAL'],
        ['dataType=TEXT', 'Invalid dataType parameter: must be one of NUMERIC, CATEGORICAL, BOOLEAN'],
        ['minValue=abc', 'Invalid minValue parameter: must be a number'],
        ['minValue=2&maxValue=1', 'Invalid minValue parameter: must not be greater than maxValue'],
        ['from=yesterday', 'Invalid from parameter: must be an ISO 8601 date-time (e.g. 2026-01-02T03:04:05.000Z)'],
      ]) {
        expect(() => parseScoreListParams(new URLSearchParams(query)), query).toThrow(message);
      }
    });

    it('deletes: admins and delete keys any score, a person their own annotation, nobody else', async () => {
      const forbidden = await thrown(deleteScore(asPerson(db, 'u-someone-else'), 'p1'));
      expect({ code: forbidden.code, message: forbidden.message }).toEqual({
        code: 'FORBIDDEN',
        message: 'Only an admin, a key with the delete scope, or the person who made this score can delete it',
      });
      const ingestKey = await thrown(deleteScore(asKey(db, ['ingest', 'read']), 'k1'));
      expect({ code: ingestKey.code, message: ingestKey.message }).toEqual({ code: 'FORBIDDEN', message: 'API key lacks the delete scope' });
      await deleteScore(asPerson(db, 'u-p'), 'p1');
      await deleteScore(asKey(db, ['delete']), 'k1');
      await deleteScore(asPerson(db, 'u-admin', 'admin'), 'k2');
      expect(await ids('')).toEqual(['o1', 'k3']);
      expect((await thrown(deleteScore(asPerson(db, 'u-admin', 'admin'), 'k2'))).code).toBe('NOT_FOUND');
      expect((await thrown(deleteScore(asPerson(db, 'u-p'), 'never-was'))).code).toBe('NOT_FOUND');
    });

    it('deleting a trace deletes its scores; deleting a session deletes its own scores too', async () => {
      await deleteTraceOrThrow(testContext(db), traceId);
      // The session has no trace left: its own score went with the last one.
      expect(await ids('')).toEqual(['o1']);
      await deleteSessionTraces(testContext(db), 'elsewhere');
      expect(await scoreCount(db)).toBe(0);
    });

    it('a session keeps its own scores while any of its traces remains', async () => {
      const second = uid('second');
      await ingestTraces(testContext(db), validateIngestBody({ traces: [makeTrace({ id: second, sessionId })] }, limits));
      await deleteTraceOrThrow(testContext(db), traceId);
      expect(await ids(`sessionId=${sessionId}`)).toEqual(['k3']);
      await deleteTraceOrThrow(testContext(db), second);
      expect(await ids(`sessionId=${sessionId}`)).toEqual([]);
    });
  });

  it('deletes racing with score writes leave exactly the scores of the traces and sessions that remain', async () => {
    await truncateAll(db);
    const traces = Array.from({ length: 12 }, (_, i) => makeTrace({ id: `race-${i}`, sessionId: `race-s${i % 3}` }));
    await ingestTraces(testContext(db), validateIngestBody({ traces }, limits));
    const key = asKey(db);
    const writes = Array.from({ length: 24 }, (_, k) =>
      save(key, [
        { traceId: `race-${k % 12}`, name: 'q', value: k },
        { traceId: `race-${k % 12}`, spanId: 's1', name: 'q', value: k },
        { sessionId: `race-s${k % 3}`, name: 'q', value: k },
      ]).then(
        () => 'stored',
        (err: unknown) => (err instanceof AppError && err.code === 'NOT_FOUND' ? 'target gone' : Promise.reject(err)),
      ),
    );
    const deletes = [
      deleteTraceOrThrow(testContext(db), 'race-0'),
      deleteTraceOrThrow(testContext(db), 'race-5'),
      deleteSessionTraces(testContext(db), 'race-s1'),
    ];
    const outcomes = await Promise.all([...writes, ...deletes]);
    expect(outcomes.slice(0, 24).every((o) => o === 'stored' || o === 'target gone')).toBe(true);
    // No score without its trace, no session score without a trace of its session.
    expect(await scoreCount(db, `"traceId" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "Trace" t WHERE t."id" = "Score"."traceId")`)).toBe(0);
    expect(await scoreCount(db, `"sessionId" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "Trace" t WHERE t."sessionId" = "Score"."sessionId")`)).toBe(0);
    expect(await scoreCount(db, `"sessionId" = 'race-s1' OR "traceId" IN ('race-0', 'race-5')`)).toBe(0);
    // Exactly the scores of the writes that succeeded whose targets remain.
    const [{ n }] = await db.sql.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM "Trace"`);
    expect(n).toBe(12 - 4 - 2); // race-s1 held race-1, 4, 7 and 10
    const gone = new Set(['race-0', 'race-5', 'race-1', 'race-4', 'race-7', 'race-10']);
    let expected = 0;
    outcomes.slice(0, 24).forEach((o, k) => {
      if (o !== 'stored') return;
      if (!gone.has(`race-${k % 12}`)) expected += 2;
      if (k % 3 !== 1) expected += 1;
    });
    expect(await scoreCount(db)).toBe(expected);
  });
});
