// Saved views on every test database: each owner sees only their own, a name saved again
// replaces its view, deletes reach only the caller's, the limits and messages hold.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Principal } from '@/lib/core/access/decide';
import type { Database } from '@/lib/db/open';
import { contextAs } from '@/test/support/context';
import { testDatabases } from '@/test/support/databases';
import { deleteView, listViews, parseSaveViewBody, saveView, VIEW_LIMITS } from './';

const person = (userId: string): Principal => ({
  mode: 'protected',
  keysOnly: false,
  credential: { kind: 'session', identity: { userId, email: `${userId}@example.test`, name: userId, role: 'viewer' } },
});
const key = (keyId: string | null): Principal => ({
  mode: 'protected',
  keysOnly: false,
  credential: { kind: 'key', identity: { keyId, keyName: keyId, scopes: ['read'] } },
});
const OPEN: Principal = { mode: 'open', keysOnly: false, credential: { kind: 'none' } };
const ANONYMOUS: Principal = { mode: 'protected', keysOnly: false, credential: { kind: 'none' } };

const body = (value: unknown) => parseSaveViewBody(JSON.stringify(value));

describe('parseSaveViewBody', () => {
  it('trims the name, drops the page, keeps the filters, sort and size as a query', () => {
    expect(body({ name: '  Errors  ', query: '?status=ERROR&page=3&tag=a&tag=b&sort=cost&limit=50', columns: ['name', 'model', 'model'] })).toEqual({
      name: 'Errors',
      query: 'status=ERROR&tag=a&tag=b&sort=cost&limit=50',
      columns: ['name', 'model'],
    });
    expect(body({ name: 'All' })).toEqual({ name: 'All', query: '', columns: [] });
  });

  it.each([
    [{}, 'Invalid name: must be a string'],
    [{ name: '   ' }, 'Invalid name: must not be empty'],
    [{ name: 'x'.repeat(VIEW_LIMITS.nameLength + 1) }, `Invalid name: at most ${VIEW_LIMITS.nameLength} characters`],
    [{ name: 'a\u0007b' }, 'Invalid name: must not contain control characters'],
    [{ name: 'v', query: 5 }, 'Invalid query: must be a string'],
    [{ name: 'v', query: 'status=DONE' }, 'Invalid query: Invalid status parameter'],
    [{ name: 'v', query: 'limit=500' }, 'Invalid query: Invalid limit parameter'],
    [{ name: 'v', query: 'x'.repeat(VIEW_LIMITS.queryLength + 1) }, `Invalid query: at most ${VIEW_LIMITS.queryLength} characters`],
    [{ name: 'v', columns: 'model' }, 'Invalid columns: must be an array of column keys'],
    [{ name: 'v', columns: ['<b>'] }, /^Invalid columns: each must be a column key/],
    [{ name: 'v', columns: Array.from({ length: VIEW_LIMITS.columns + 1 }, (_, i) => `c${i}`) }, `Invalid columns: at most ${VIEW_LIMITS.columns}`],
  ])('refuses %j: %s', (value, message) => {
    expect(() => body(value)).toThrow(message);
  });

  it('refuses what is not a JSON object', () => {
    expect(() => parseSaveViewBody('{')).toThrow('Invalid JSON body');
    expect(() => parseSaveViewBody('[]')).toThrow('The body must be a JSON object');
  });
});

describe.each(testDatabases())('saved views on $name', ({ open }) => {
  let db: Database;
  beforeAll(async () => {
    db = await open();
  });
  afterAll(async () => {
    await db.close();
  });
  beforeEach(async () => {
    await db.sql.exec('TRUNCATE "SavedView"');
  });

  it('are each owner’s own: a person, another person, a key, API_KEYS keys, open mode', async () => {
    const ada = contextAs(db, person('ada'));
    const bob = contextAs(db, person('bob'));
    const { view, created } = await saveView(ada, body({ name: 'Errors', query: 'status=ERROR', columns: ['name', 'model'] }));
    expect(created).toBe(true);
    expect(view).toMatchObject({ name: 'Errors', query: 'status=ERROR', columns: ['name', 'model'] });
    await saveView(ada, body({ name: 'Costly', query: 'minCost=1' }));
    await saveView(bob, body({ name: 'Errors', query: 'status=ERROR&tag=bob' }));
    await saveView(contextAs(db, key('k1')), body({ name: 'Key view' }));
    await saveView(contextAs(db, key(null)), body({ name: 'Env keys' }));
    await saveView(contextAs(db, OPEN), body({ name: 'Shared' }));

    expect((await listViews(ada)).map((v) => v.name)).toEqual(['Costly', 'Errors']);
    expect((await listViews(bob)).map((v) => v.query)).toEqual(['status=ERROR&tag=bob']);
    expect((await listViews(contextAs(db, key('k1')))).map((v) => v.name)).toEqual(['Key view']);
    expect((await listViews(contextAs(db, key(null)))).map((v) => v.name)).toEqual(['Env keys']);
    expect((await listViews(contextAs(db, OPEN))).map((v) => v.name)).toEqual(['Shared']);
    await expect(listViews(contextAs(db, ANONYMOUS))).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    await expect(saveView(contextAs(db, ANONYMOUS), body({ name: 'x' }))).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });

    // Bob cannot delete Ada's view: to him it does not exist.
    await expect(deleteView(bob, view.id)).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'View not found' });
    await deleteView(ada, view.id);
    expect((await listViews(ada)).map((v) => v.name)).toEqual(['Costly']);
    await expect(deleteView(ada, view.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(deleteView(ada, '')).rejects.toMatchObject({ code: 'VALIDATION', message: 'Invalid view ID' });
  });

  it('saving a name again replaces that view, also when saves race', async () => {
    const ada = contextAs(db, person('ada'));
    const first = await saveView(ada, body({ name: 'Mine', query: 'status=ERROR' }));
    const again = await saveView(ada, body({ name: ' Mine ', query: 'status=RUNNING', columns: ['name'] }));
    expect(again.created).toBe(false);
    expect(again.view).toMatchObject({ id: first.view.id, query: 'status=RUNNING', columns: ['name'] });

    const raced = await Promise.all(Array.from({ length: 8 }, (_, i) => saveView(ada, body({ name: 'Raced', query: `limit=${i + 1}` }))));
    expect(raced.filter((r) => r.created)).toHaveLength(1);
    expect((await listViews(ada)).map((v) => v.name)).toEqual(['Mine', 'Raced']);
  });

  it(`keep at most ${VIEW_LIMITS.perOwner} per owner`, async () => {
    const ada = contextAs(db, person('ada'));
    for (let i = 0; i < VIEW_LIMITS.perOwner; i++) await saveView(ada, body({ name: `v${i}` }));
    await expect(saveView(ada, body({ name: 'one more' }))).rejects.toMatchObject({
      code: 'VALIDATION',
      message: `Too many views: at most ${VIEW_LIMITS.perOwner} each; delete one first`,
    });
    // Replacing one still works at the limit, and another owner is not affected.
    await saveView(ada, body({ name: 'v0', query: 'status=ERROR' }));
    await saveView(contextAs(db, person('bob')), body({ name: 'one more' }));
  });
});
