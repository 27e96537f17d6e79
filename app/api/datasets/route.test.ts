// The datasets API through its route handlers, on both databases: create (a taken name is
// a 409), list, read, items added and replaced all or nothing with errors naming the
// field and index, paging, and deleting a dataset (its items go, traces stay).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST as ingestRoute } from '@/app/api/traces/route';
import { useDatabase } from '@/lib/db';
import type { Database } from '@/lib/db/open';
import { resetAccess } from '@/test/support/access';
import { testDatabases } from '@/test/support/databases';
import { makeTrace, uid } from '@/test/support/fixtures';
import { DELETE as deleteRoute, GET as getRoute } from './[name]/route';
import { GET as listItemsRoute, POST as itemsRoute } from './[name]/items/route';
import { GET as listRoute, POST as createRoute } from './route';

const AUTH = { authorization: 'Bearer datasets-route-key', 'content-type': 'application/json' };
const body = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));
const create = (value: unknown) => createRoute(new Request('http://x/api/datasets', { method: 'POST', headers: AUTH, body: body(value) }));
const named = (name: string) => ({ params: Promise.resolve({ name }) });
const addItems = (name: string, value: unknown) =>
  itemsRoute(new Request(`http://x/api/datasets/${name}/items`, { method: 'POST', headers: AUTH, body: body(value) }), named(name));
const items = async (name: string, query = '') =>
  (await (await listItemsRoute(new Request(`http://x/api/datasets/${name}/items${query}`), named(name))).json()) as {
    items: Array<Record<string, unknown>>;
    total: number;
    totalPages: number;
  };
const answer = async (res: Response) => ({ status: res.status, body: await res.json() });

describe.each(testDatabases())('the datasets API on $name', ({ open }) => {
  let db: Database;
  beforeAll(async () => {
    db = await open();
    useDatabase(db);
    resetAccess();
  });
  afterAll(async () => {
    await db.close();
  });

  it('creates a dataset with the answer the contract names; a taken name is a 409', async () => {
    const name = uid('support.v1').slice(0, 90);
    const res = await create({ name, description: 'Support questions', metadata: { owner: 'team-a' } });
    expect(res.status).toBe(201);
    const { dataset } = (await res.json()) as { dataset: Record<string, unknown> };
    expect(Object.keys(dataset).sort()).toEqual(['createdAt', 'description', 'id', 'itemCount', 'metadata', 'name', 'updatedAt']);
    expect(dataset).toMatchObject({ name, description: 'Support questions', metadata: { owner: 'team-a' }, itemCount: 0 });
    expect(dataset.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(await answer(await create({ name }))).toEqual({ status: 409, body: { error: `A dataset named "${name}" already exists` } });
    expect(await answer(await getRoute(new Request(`http://x/api/datasets/${name}`), named(name)))).toEqual({ status: 200, body: { dataset } });
    const listed = (await (await listRoute(new Request('http://x/api/datasets?limit=100'))).json()) as { datasets: Array<{ name: string }>; total: number; page: number; limit: number; totalPages: number };
    expect(listed).toMatchObject({ page: 1, limit: 100 });
    expect(listed.datasets.map((d) => d.name)).toContain(name);
    expect(listed.totalPages).toBe(Math.ceil(listed.total / 100));
  });

  it.each([
    [{}, "name is required: 1 to 100 letters, digits, '.', '_' or '-'"],
    [{ name: 'has space' }, "name is required: 1 to 100 letters, digits, '.', '_' or '-'"],
    [{ name: 'x'.repeat(101) }, "name is required: 1 to 100 letters, digits, '.', '_' or '-'"],
    [{ name: 'ok', description: 5 }, 'description must be a string or null'],
    ['{"name":', 'Invalid JSON in request body'],
  ])('refuses %j: %s', async (value, error) => {
    expect(await answer(await create(value))).toEqual({ status: 400, body: { error } });
  });

  it('adds items all or nothing, replaces the same id (idempotent), and pages them in the order added', async () => {
    const name = uid('items').slice(0, 90);
    expect((await create({ name })).status).toBe(201);
    const first = [
      { id: 'q1', input: { question: 'Where is my order?' }, expectedOutput: 'It shipped Monday.', expectedDecisions: [{ type: 'TOOL_SELECTION', chosen: { tool: 'lookup_order' } }] },
      { input: 'no id: one is made' },
      { id: 'q3', input: null, metadata: { source: 'prod' }, sourceTraceId: 'trace-7' },
    ];
    expect(await answer(await addItems(name, { items: first }))).toEqual({ status: 200, body: { success: true, count: 3 } });
    // The same request again changes nothing but the generated item (a new one without an id).
    expect((await addItems(name, { items: [first[0], first[2]] })).status).toBe(200);
    let page = await items(name);
    expect(page.total).toBe(3);
    expect(page.items.map((i) => i.id)[0]).toBe('q1');
    expect(page.items[0]).toMatchObject({ input: { question: 'Where is my order?' }, expectedOutput: 'It shipped Monday.', archived: false, sourceTraceId: null });
    expect(page.items.find((i) => i.id === 'q3')).toMatchObject({ input: null, metadata: { source: 'prod' }, sourceTraceId: 'trace-7', expectedOutput: null, expectedDecisions: null });
    // A person corrects an expected output and archives another.
    await addItems(name, { items: [{ ...first[0], expectedOutput: 'It shipped Tuesday.' }, { ...first[2], archived: true }] });
    page = await items(name);
    expect(page.items.find((i) => i.id === 'q1')?.expectedOutput).toBe('It shipped Tuesday.');
    const dataset = (await (await getRoute(new Request('http://x'), named(name))).json()) as { dataset: { itemCount: number } };
    expect(dataset.dataset.itemCount).toBe(2);
    // A failing item anywhere stores none of the request.
    const bad = await addItems(name, { items: [{ id: 'q9', input: 1 }, { id: 'q10' }] });
    expect(await answer(bad)).toEqual({ status: 400, body: { error: 'items[1].input is required (any JSON)' } });
    expect((await items(name)).total).toBe(3);
    // Paged like traces.
    const second = await items(name, '?page=2&limit=2');
    expect(second).toMatchObject({ total: 3, page: 2, limit: 2, totalPages: 2 });
    expect(second.items).toHaveLength(1);
    expect((await listItemsRoute(new Request(`http://x/api/datasets/${name}/items?limit=0`), named(name))).status).toBe(400);
  });

  it.each([
    [{ items: [] }, 'Items array cannot be empty'],
    [{ items: [{ id: 'a', input: 1 }, { id: 'a', input: 2 }] }, 'items[1].id "a" appears more than once in this request'],
    [{ items: [{ input: 1, expectedDecisions: [{ type: 'NOPE', chosen: 'x' }] }] }, expect.stringMatching(/^items\[0\]\.expectedDecisions\[0\]\.type is invalid/)],
    [{ items: [{ input: 1, expectedDecisions: [{ type: 'ROUTING' }] }] }, 'items[0].expectedDecisions[0] must be an object with "chosen"'],
    [{ items: [{ input: 'a\u0000b' }] }, 'items[0].input contains a NUL character or an unpaired surrogate, which cannot be stored'],
    [{ items: [{ input: 1, archived: 'yes' }] }, 'items[0].archived must be true or false'],
    [{ items: Array.from({ length: 1001 }, () => ({ input: 1 })) }, 'Too many items in one request: 1001; at most 1000 are allowed'],
  ])('refuses items (case %#)', async (value, error) => {
    const name = uid('refuse').slice(0, 90);
    await create({ name });
    expect(await answer(await addItems(name, value))).toEqual({ status: 400, body: { error } });
  });

  it('a missing dataset is a 404 everywhere; deleting one takes its items but not the traces', async () => {
    expect(await answer(await addItems('no-such-dataset', { items: [{ input: 1 }] }))).toEqual({ status: 404, body: { error: 'Dataset not found' } });
    expect((await getRoute(new Request('http://x'), named('no-such-dataset'))).status).toBe(404);
    const name = uid('gone').slice(0, 90);
    await create({ name });
    const traceId = uid('kept');
    expect((await ingestRoute(new Request('http://x/api/traces', { method: 'POST', headers: AUTH, body: JSON.stringify({ traces: [makeTrace({ id: traceId })] }) }))).status).toBe(200);
    await addItems(name, { items: [{ id: 'i1', input: 1, sourceTraceId: traceId }] });
    const del = (n: string) => deleteRoute(new Request(`http://x/api/datasets/${n}`, { method: 'DELETE', headers: AUTH }), named(n));
    expect(await answer(await del(name))).toEqual({ status: 200, body: { success: true } });
    expect((await getRoute(new Request('http://x'), named(name))).status).toBe(404);
    expect(await db.sql.query('SELECT 1 FROM "DatasetItem" i JOIN "Dataset" d ON d."id" = i."datasetId" WHERE d."name" = $1', [name])).toEqual([]);
    expect((await db.sql.query('SELECT 1 FROM "Trace" WHERE "id" = $1', [traceId])).length).toBe(1);
    expect((await del(name)).status).toBe(404);
  });
});
