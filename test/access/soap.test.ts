// SOAP through the real route with keys made in /settings/api-keys: `save` needs the
// ingest scope, every other operation the read scope; a key without it gets business
// status 0 with a type-3 message naming the scope (never a fault, never data).
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { POST } from '@/app/api/soap/route';
import { useDatabase } from '@/lib/db';
import { STYLES, int, keys, parseFault, parseResult, phpEnvelope, str, type Ctx, type Part } from '@/test/support/soap';
import type { Database } from '@/lib/db/open';
import { testDatabases } from '@/test/support/databases';
import { makeTrace, uid } from '@/test/support/fixtures';
import { basic, makeKey, makeUser, ORIGIN, resetAccess } from '@/test/support/access';

const soap = (op: string, ctx: Ctx, parts: Part[], headers: Record<string, string> = {}) =>
  POST(
    new Request(`${ORIGIN}/api/soap`, {
      method: 'POST',
      body: phpEnvelope(op, ctx, parts),
      headers: { 'content-type': 'text/xml; charset=utf-8', ...headers },
    }),
  );

const readParts = (id: string) => [str('publicName', 'TRACE'), keys('objectKeys', [['id', id]])];
const saveParts = (id: string) => [str('publicName', 'TRACE'), str('objectXml', JSON.stringify(makeTrace({ id })))];

describe.each(testDatabases())('SOAP scopes on $name', ({ open }) => {
  let db: Database;
  let ingestKey: string;
  let readKey: string;
  let traceId: string;
  const savedEnv = { ...process.env };

  beforeAll(async () => {
    db = await open();
    vi.spyOn(console, 'info').mockImplementation(() => undefined);
    useDatabase(db);
    resetAccess();
    const admin = await makeUser('admin');
    ingestKey = (await makeKey(['ingest'], admin.id)).key;
    readKey = (await makeKey(['read'], admin.id)).key;
    traceId = uid('soap');
    const saved = parseResult(await (await soap('save', { password: ingestKey }, saveParts(traceId))).text());
    expect(saved.status, JSON.stringify(saved)).toBe(1);
  });
  afterAll(async () => {
    await db.close();
    vi.restoreAllMocks();
  });
  beforeEach(() => {
    useDatabase(db);
  });
  afterEach(() => {
    process.env = { ...savedEnv };
  });

  const refusal = (message: string) => ({ status: 0, resultXml: '', messages: [{ type: '3', message }] });

  it('read with an ingest-only key: status 0, "API key lacks the read scope"', async () => {
    const res = await soap('read', { password: ingestKey }, readParts(traceId));
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(parseResult(text)).toMatchObject(refusal('API key lacks the read scope'));
    expect(text).not.toContain(traceId);
  });

  it.each([
    ['query', [str('publicName', 'TRACE'), keys('objectKeys', []), int('listSize', 10)]],
    ['getDescription', [str('publicName', 'TRACE')]],
  ] as const)('%s with an ingest-only key: status 0, lacks the read scope', async (op, parts) => {
    const result = parseResult(await (await soap(op, { password: ingestKey }, [...parts])).text());
    expect(result).toMatchObject(refusal('API key lacks the read scope'));
  });

  it('save with a read-only key: status 0, "API key lacks the ingest scope", nothing stored', async () => {
    const id = uid('refused');
    const result = parseResult(await (await soap('save', { password: readKey }, saveParts(id))).text());
    expect(result).toMatchObject(refusal('API key lacks the ingest scope'));
    expect(await db.prisma.trace.count({ where: { id } })).toBe(0);
  });

  it('a read key reads, in callContext or as the Basic password', async () => {
    for (const [ctx, headers] of [
      [{ password: readKey }, {}],
      [{ password: '' }, basic(readKey)],
    ] as const) {
      const result = parseResult(await (await soap('read', ctx, readParts(traceId), headers)).text());
      expect(result.status).toBe(1);
      expect(result.resultXml).toContain(traceId);
    }
    const query = parseResult(await (await soap('query', { password: readKey }, [str('publicName', 'TRACE'), keys('objectKeys', []), int('listSize', 10)])).text());
    expect(query.status).toBe(1);
    expect(query.resultXml).toContain(traceId);
  });

  // The parts are read by node-soap, the costly step; a caller without a key never gets there.
  it('without a valid key, a call is refused before its parts are read, in every client style', async () => {
    const mistyped = [str('publicName', 'TRACE'), keys('objectKeys', []), str('listSize', 'ten')];
    for (const [name, style] of Object.entries(STYLES)) {
      for (const password of ['', 'cr_unknownKey0123456789abcdefghijklmnopqrstuvwxyz']) {
        const res = await POST(new Request(`${ORIGIN}/api/soap`, { method: 'POST', body: style('query', { password }, mistyped), headers: { 'content-type': 'text/xml' } }));
        expect(res.status, `${name} ${password}`).toBe(200);
        expect(parseResult(await res.text())).toMatchObject(refusal('Authentication failed'));
      }
    }
    const known = await soap('query', { password: readKey }, mistyped);
    expect(known.status).toBe(500);
    expect(parseFault(await known.text())).toMatchObject({ faultcode: { local: 'Client' }, faultstring: expect.stringContaining('listSize') });
  });

  it('an unknown key, and no key, fail authentication', async () => {
    for (const password of ['', 'cr_unknownKey0123456789abcdefghijklmnopqrstuvwxyz']) {
      const result = parseResult(await (await soap('read', { password }, readParts(traceId))).text());
      expect(result).toMatchObject(refusal('Authentication failed'));
    }
  });
});
