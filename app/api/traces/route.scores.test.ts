// GET /api/traces with the review filters (reviewed, judged, better) and the score filter
// (score.<name>=<condition>) through the route handler, on every test database, over
// test/support/insights-dataset.ts with the scores of test/support/review-scores.ts.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useDatabase } from '@/lib/db';
import type { Database } from '@/lib/db/open';
import { testDatabases } from '@/test/support/databases';
import { WINDOW, type DatasetIds } from '@/test/support/insights-dataset';
import { seedReviewedDataset } from '@/test/support/review-scores';
import { GET } from './route';

const IN_WINDOW = `from=${WINDOW.from}&to=${WINDOW.to}`;

function list(query: string): Promise<Response> {
  return GET(new Request(`http://test/api/traces?${query}`), undefined);
}

describe.each(testDatabases())('GET /api/traces review and score filters on $name', ({ open }) => {
  let db: Database;
  let T: DatasetIds;

  beforeAll(async () => {
    db = await open();
    useDatabase(db);
    T = await seedReviewedDataset(db);
  });
  afterAll(async () => {
    await db.close();
  });
  beforeEach(() => {
    useDatabase(db);
  });

  async function ids(query: string): Promise<string[]> {
    const res = await list(`${query}&limit=100`);
    expect(res.status, await res.clone().text()).toBe(200);
    const body = await res.json();
    const found = body.traces.map((t: { id: string }) => t.id);
    expect(body.total, `total of ${query}`).toBe(found.length);
    return found;
  }

  async function expectError(query: string, message: string) {
    const res = await list(query);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: message });
  }

  // Newest first, the dataset is: T6, T4, T3, T2, T1, T5, T7.
  it('reviewed, judged and better: on the same decision point as decisionType and chosen', async () => {
    const search = `${IN_WINDOW}&decisionType=TOOL_SELECTION&chosen=search`;
    expect(await ids(`${search}&reviewed=true`)).toEqual([T.T2, T.T1]);
    expect(await ids(`${search}&judged=right`)).toEqual([T.T1]);
    expect(await ids(`${search}&judged=wrong`)).toEqual([T.T2, T.T1]);
    expect(await ids(`${search}&better=calc`)).toEqual([T.T2, T.T1]);
    expect(await ids(`${search}&better=web`)).toEqual([T.T2]);
    expect(await ids(`${search}&better=web&judged=right`)).toEqual([]);
    expect(await ids(`decisionType=TOOL_SELECTION&chosen=search&reviewed=true`)).toEqual([T.T6, T.T2, T.T1]);
    expect(await ids(`${IN_WINDOW}&decisionType=TOOL_SELECTION&chosen=calc&judged=right`)).toEqual([T.T3]);
    // T3's reviewed decision is a tool selection; its routing to billing is not reviewed.
    expect(await ids(`${IN_WINDOW}&decisionType=ROUTING&chosen=billing&reviewed=true`)).toEqual([]);
    expect(await ids(`${IN_WINDOW}&decisionType=ROUTING&reviewed=false`)).toEqual([T.T3]);
    expect(await ids(`${IN_WINDOW}&decisionType=ROUTING&judged=wrong`)).toEqual([]);
    // Without a type or label: any decision point of the trace.
    expect(await ids(`${IN_WINDOW}&judged=right`)).toEqual([T.T4, T.T3, T.T1]);
    expect(await ids(`${IN_WINDOW}&reviewed=true`)).toEqual([T.T4, T.T3, T.T2, T.T1]);
    // Empty is no filter, as for every filter of the list.
    expect(await ids(`${IN_WINDOW}&reviewed=&judged=&better=`)).toEqual([T.T4, T.T3, T.T2, T.T1, T.T5]);
  });

  it('score.<name>: any score, the average compared, or some score equal to a value', async () => {
    expect(await ids('score.quality=*')).toEqual([T.T2, T.T1, T.T7]);
    expect(await ids('score.quality=>=0.5')).toEqual([T.T2, T.T1]);
    expect(await ids('score.quality=>0.5')).toEqual([T.T2]);
    expect(await ids('score.quality=<0.5')).toEqual([T.T7]);
    expect(await ids('score.quality=<=0')).toEqual([T.T7]);
    expect(await ids('score.quality=1')).toEqual([T.T2]);
    expect(await ids('score.tone=friendly')).toEqual([T.T4, T.T1]);
    expect(await ids('score.tone==friendly')).toEqual([T.T4, T.T1]);
    expect(await ids('score.tone=rude')).toEqual([]);
    // A decision's scores count for its trace; BOOLEAN averages count true as 1.
    expect(await ids('score.decision.correct=false')).toEqual([T.T6, T.T2, T.T1]);
    expect(await ids('score.decision.correct=<1')).toEqual([T.T6, T.T2, T.T1]);
    expect(await ids('score.decision.correct=>=0.5')).toEqual([T.T4, T.T3, T.T1]);
    // A session's own scores belong to no trace.
    expect(await ids(`score.tone=curt`)).toEqual([T.T3]);
    // Several: all must hold; with the other filters too.
    expect(await ids('score.quality=*&score.tone=friendly')).toEqual([T.T1]);
    expect(await ids(`${IN_WINDOW}&status=ERROR&score.quality=*`)).toEqual([T.T2]);
  });

  it('sort=score.<name>: by the trace\'s average, traces without one last in both orders, ties by id', async () => {
    expect(await ids('sort=score.quality')).toEqual([T.T2, T.T1, T.T7, T.T6, T.T5, T.T4, T.T3]);
    expect(await ids('sort=score.quality&order=asc')).toEqual([T.T7, T.T1, T.T2, T.T3, T.T4, T.T5, T.T6]);
    expect(await ids(`${IN_WINDOW}&sort=score.decision.correct`)).toEqual([T.T4, T.T3, T.T1, T.T2, T.T5]);
    // With a filter on the same score, and paged.
    const res = await list('score.quality=*&sort=score.quality&order=asc&limit=2&page=2');
    const body = await res.json();
    expect([body.total, body.traces.map((t: { id: string }) => t.id)]).toEqual([3, [T.T2]]);
  });

  it('each row carries its scores per name: count, average, a categorical\'s most frequent values', async () => {
    const res = await list(`${IN_WINDOW}&limit=100`);
    const rows = (await res.json()).traces as Array<{ id: string; scoreSummary: unknown }>;
    const of = (id: string) => rows.find((r) => r.id === id)!.scoreSummary;
    expect(of(T.T1)).toEqual([
      { name: 'decision.better_option', dataType: 'CATEGORICAL', count: 1, average: null, values: [{ value: 'calc', count: 1 }] },
      { name: 'decision.correct', dataType: 'BOOLEAN', count: 2, average: 0.5, values: [] },
      { name: 'quality', dataType: 'NUMERIC', count: 1, average: 0.5, values: [] },
      { name: 'tone', dataType: 'CATEGORICAL', count: 1, average: null, values: [{ value: 'friendly', count: 1 }] },
    ]);
    expect(of(T.T2)).toEqual([
      { name: 'decision.better_option', dataType: 'CATEGORICAL', count: 2, average: null, values: [{ value: 'calc', count: 1 }, { value: 'web', count: 1 }] },
      { name: 'decision.correct', dataType: 'BOOLEAN', count: 2, average: 0, values: [] },
      { name: 'quality', dataType: 'NUMERIC', count: 1, average: 1, values: [] },
    ]);
    expect(of(T.T5)).toEqual([]);
  });

  it('bad values are 400 naming the parameter', async () => {
    await expectError('sort=score.', 'Invalid sort parameter: needs a score name after "score." (sort=score.<name>)');
    await expectError('sort=scores', 'Invalid sort parameter: must be one of startedAt, duration, cost');
    await expectError('reviewed=yes', 'Invalid reviewed parameter: must be true or false');
    await expectError('judged=maybe', 'Invalid judged parameter: must be one of right, wrong');
    await expectError(`better=${'x'.repeat(501)}`, 'Invalid better parameter: a label is at most 500 characters');
    await expectError('score.=1', 'Invalid score. parameter: needs a score name after "score." (score.<name>=<condition>)');
    await expectError('score.quality=%3E%3Dhigh', 'Invalid score.quality parameter: >= must be followed by a number (e.g. >=0.5)');
    await expectError('score.quality==', 'Invalid score.quality parameter: needs a value after "="');
    await expectError('score.quality=1&score.quality=2', 'Invalid score.quality parameter: give one condition per score name');
    const eleven = Array.from({ length: 11 }, (_, i) => `score.s${i}=*`).join('&');
    await expectError(eleven, 'Invalid score.s10 parameter: at most 10 score filters');
    await expectError(`score.${'n'.repeat(201)}=*`, `Invalid score.${'n'.repeat(201)} parameter: score names are at most 200 characters`);
  });
});
