// The SOAP service end to end over a real database (PGlite, and PostgreSQL in CI), with
// envelopes in the styles of PHP SoapClient, Axis 1.x (multiRef), .NET and SoapUI.
// Every response goes through parseResult, which fails on any rpc/encoded typing slip.
import { contextAs } from '@/test/support/context';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '@/lib/db/open';
import { testDatabases } from '@/test/support/databases';
import { makeTrace, uid } from '@/test/support/fixtures';
import { readParamXml } from './codec';
import { handleSoapPost, type ServiceDeps } from './service';
import { STYLES, axisEnvelope, int, keys, parseFault, parseResult, phpEnvelope, str, type Ctx, type Part } from '@/test/support/soap';
import { elementChildren, getAttr, parseXml, textContent } from './xml';
import { resolvePrincipal } from '@/lib/features/access/principal';

const KEY = 'soap-test-key';
const good: Ctx = { codeUser: 'tester', password: KEY };

type Style = keyof typeof STYLES;

describe.each(testDatabases())('SOAP service on $name', (target) => {
  let database: Database;
  let deps: ServiceDeps;
  const savedKeys = process.env.API_KEYS;
  const savedUrl = process.env.DATABASE_URL;

  beforeAll(async () => {
    process.env.API_KEYS = KEY;
    // HEALTH checks the process database (lib/db): keep it in memory.
    process.env.DATABASE_URL = 'memory://';
    database = await target.open();
    deps = {
      context: async (headers, envelopeKey) => contextAs(database, await resolvePrincipal(headers, { kind: 'soap', envelopeKey })),
      limits: () => ({ maxBodyBytes: 5_000_000, maxBatchTraces: 10, maxChildrenPerTrace: 500, maxInflightBodyBytes: 24_000_000, admissionWaitMs: 1_000 }),
    };
    vi.spyOn(console, 'info').mockImplementation(() => undefined);
  });

  afterAll(async () => {
    process.env.API_KEYS = savedKeys;
    process.env.DATABASE_URL = savedUrl;
    await database?.close();
    vi.restoreAllMocks();
  });

  async function call(style: Style, op: string, ctx: Ctx, parts: Part[], headers: Record<string, string> = {}) {
    const res = await handleSoapPost(deps, STYLES[style](op, ctx, parts), new Headers(headers));
    expect(res.headers['Content-Type']).toBe('text/xml; charset=utf-8');
    if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${res.body}`);
    return parseResult(res.body);
  }

  async function save(trace: Record<string, unknown>, ctx: Ctx = good) {
    return call('php', 'save', ctx, [str('publicName', 'TRACE'), str('objectXml', JSON.stringify(trace))]);
  }

  function fields(resultXml: string, group = 'TRACE'): Record<string, string | null | string[]> {
    const doc = readParamXml(resultXml, 'resultXml');
    const out: Record<string, string | null | string[]> = {};
    for (const [k, v] of doc.groups.get(group) ?? doc.fields) out[k] = v.kind === 'FLD' ? v.value : v.items;
    return out;
  }

  function lines(resultXml: string): Record<string, string | null>[] {
    const root = parseXml(resultXml);
    return elementChildren(root)
      .filter((e) => e.local === 'LIN')
      .map((lin) =>
        Object.fromEntries(
          elementChildren(lin).map((f) => [getAttr(f, 'NAME')!, getAttr(f, 'NULL') === 'true' ? null : textContent(f)]),
        ),
      );
  }

  describe.each(['php', 'axis', 'dotnet', 'soapui'] as Style[])('%s-style envelopes', (style) => {
    const id = uid(style);
    const session = uid('sess');

    it('saves a JSON trace and returns it as read does', async () => {
      const r = await call(style, 'save', good, [
        str('publicName', 'TRACE'),
        str('objectXml', JSON.stringify(makeTrace({ id, sessionId: session, name: `${style} run` }))),
      ]);
      expect(r).toMatchObject({ operation: 'save', status: 1, messages: [] });
      expect(fields(r.resultXml)).toMatchObject({ id, name: `${style} run`, status: 'COMPLETED', tags: ['prod'], totalCost: '0.0123' });
    });

    it('reads it back by id', async () => {
      const r = await call(style, 'read', good, [str('publicName', 'TRACE'), keys('objectKeys', [['id', id]])]);
      expect(r.status).toBe(1);
      const doc = readParamXml(r.resultXml, 'resultXml');
      expect(doc.tabs.get('SPANS')?.length).toBe(2);
      expect(doc.tabs.get('DECISIONPOINTS')?.[0].get('alternatives')).toEqual({
        kind: 'FLD',
        type: 'Json',
        value: '[{"tool":"search"},{"tool":"calculator"}]',
      });
      expect(fields(r.resultXml)).toMatchObject({ id, endedAt: '2026-01-02T03:04:07.300Z', metadata: '{"model":"gpt-x"}' });
    });

    it('queries with filters and listSize', async () => {
      const r = await call(style, 'query', good, [
        str('publicName', 'TRACE'),
        keys('objectKeys', [
          ['sessionId', session],
          ['status', 'COMPLETED'],
        ]),
        int('listSize', 10),
      ]);
      expect(r.status).toBe(1);
      expect(lines(r.resultXml)).toEqual([
        expect.objectContaining({ id, spanCount: '2', decisionPointCount: '1', eventCount: '1' }),
      ]);
    });

    it('describes, runs HEALTH and TRACE_STATS', async () => {
      const d = await call(style, 'getDescription', good, [str('publicName', 'TRACE')]);
      expect(d.resultXml).toContain('<FLD NAM="id" TYP="Char" KEY="1" REQ="1"/>');
      const h = await call(style, 'run', good, [str('publicName', 'HEALTH'), str('inputXml', '')]);
      expect(fields(h.resultXml, 'HEALTH')).toMatchObject({ status: 'ok', database: 'ok' });
      const s = await call(style, 'run', good, [
        str('publicName', 'TRACE_STATS'),
        str('inputXml', `<PARAM><GRP ID="IN"><FLD NAME="sessionId">${session}</FLD></GRP></PARAM>`),
      ]);
      expect(fields(s.resultXml, 'TRACE_STATS')).toMatchObject({ traceCount: '1', completedCount: '1', totalTokens: '1500' });
    });

    it('fails authentication with a wrong password, as status 0', async () => {
      const r = await call(style, 'read', { password: 'wrong' }, [str('publicName', 'TRACE'), keys('objectKeys', [['id', id]])]);
      expect(r).toMatchObject({ status: 0, resultXml: '', messages: [{ type: '3', message: 'Authentication failed' }] });
    });
  });

  describe('save', () => {
    const nasty = 'a <b> & "c" \'d\' ]]> e ]]]]><![CDATA[x]]> 😀 中文 עברית \u00a0 tab\there';

    it('stores the PARAM form and escapes every value, in and out', async () => {
      const id = uid('param');
      const param =
        `<PARAM><GRP ID="TRACE">` +
        `<FLD NAME="id">${id}</FLD>` +
        `<FLD NAME="name" TYPE="Char">${nasty.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}</FLD>` +
        `<FLD NAME="status">RUNNING</FLD><FLD NAME="startedAt" TYPE="DateTime">2026-02-03T04:05:06.007Z</FLD>` +
        `<FLD NAME="totalCost" TYPE="Decimal">0.0000001</FLD><FLD NAME="endedAt" NULL="true"/>` +
        `<FLD NAME="metadata" TYPE="Json"><![CDATA[{"k":"<v> & ]]]]><![CDATA[> 😀"}]]></FLD>` +
        `<LST NAME="tags"><ITM>x&amp;y</ITM><ITM>z</ITM></LST></GRP>` +
        `<TAB ID="SPANS" SIZE="1"><LIN NUM="1"><FLD NAME="id">s1</FLD><FLD NAME="name">root</FLD>` +
        `<FLD NAME="type">AGENT</FLD><FLD NAME="status">RUNNING</FLD><FLD NAME="startedAt">2026-02-03T04:05:06.007Z</FLD>` +
        `<FLD NAME="input" TYPE="Json">{"q":"1 &lt; 2"}</FLD></LIN></TAB>` +
        `<TAB ID="EVENTS" SIZE="0"/></PARAM>`;
      const r = await call('php', 'save', good, [str('publicName', 'TRACE'), str('objectXml', param)]);
      expect(r.messages).toEqual([]);
      expect(r.status).toBe(1);
      const f = fields(r.resultXml);
      expect(f).toMatchObject({ id, name: nasty, status: 'RUNNING', endedAt: null, totalCost: '0.0000001', tags: ['x&y', 'z'] });
      expect(JSON.parse(f.metadata as string)).toEqual({ k: '<v> & ]]> 😀' });
      const span = readParamXml(r.resultXml, 'r').tabs.get('SPANS')![0];
      expect(span.get('input')).toMatchObject({ value: '{"q":"1 < 2"}' });

      // The same through JSON output and through SoapUI's CDATA style.
      const j = await call('soapui', 'read', { ...good, requestConfig: 'adxwss.optreturn=JSON' }, [
        str('publicName', 'TRACE'),
        keys('objectKeys', [['id', id]]),
      ]);
      const trace = JSON.parse(j.resultXml);
      expect(trace).toMatchObject({ id, name: nasty, metadata: { k: '<v> & ]]> 😀' }, decisionPoints: [], events: [] });
      expect(trace.spans[0]).toMatchObject({ id: 's1', input: { q: '1 < 2' } });
    });

    it('reads characters outside the BMP sent as surrogate-pair references (Axis 1.x)', async () => {
      const id = uid('axis-emoji');
      const name = 'smile 😀 and 𝄞';
      const body = axisEnvelope('save', good, [str('publicName', 'TRACE'), str('objectXml', JSON.stringify(makeTrace({ id, name })))]);
      expect(body).toContain('&#xD83D;&#xDE00;');
      const r = parseResult((await handleSoapPost(deps, body, new Headers())).body);
      expect(r.status).toBe(1);
      expect(fields(r.resultXml).name).toBe(name);
    });

    it('takes back what read returned (RESULT round trip) under a new id', async () => {
      const id = uid('rt');
      await save(makeTrace({ id }));
      const read = await call('axis', 'read', good, [str('publicName', 'TRACE'), keys('objectKeys', [['id', id]])]);
      const copyId = uid('copy');
      const again = read.resultXml.replace(`<FLD NAME="id" TYPE="Char">${id}</FLD>`, `<FLD NAME="id" TYPE="Char">${copyId}</FLD>`);
      const r = await call('axis', 'save', good, [str('publicName', 'TRACE'), str('objectXml', again)]);
      expect(r.messages).toEqual([]);
      const strip = (xml: string) => xml.replace(/<FLD NAME="(createdAt|traceId|id)"[^>]*>[^<]*<\/FLD>/g, '');
      expect(strip(r.resultXml)).toBe(strip(read.resultXml));
    });

    it('refuses a duplicate id as status 0 and an invalid trace naming the field, storing nothing', async () => {
      const id = uid('dup');
      expect((await save(makeTrace({ id }))).status).toBe(1);
      const dup = await save(makeTrace({ id }));
      expect(dup).toMatchObject({ status: 0, resultXml: '', messages: [{ type: '3', message: 'Duplicate trace ID detected' }] });

      const badId = uid('bad');
      const bad = await save(makeTrace({ id: badId, spans: [{ id: 's', name: 'x', type: 'NOPE', status: 'RUNNING', startedAt: '2026-01-01T00:00:00Z' }] }));
      expect(bad.status).toBe(0);
      expect(bad.messages[0].message).toMatch(/spans\[0\]\.type/);
      const read = await call('php', 'read', good, [str('publicName', 'TRACE'), keys('objectKeys', [['id', badId]])]);
      expect(read.messages).toEqual([{ type: '3', message: 'Trace not found' }]);
    });

    it('reports bad objectXml as status 0: empty, broken JSON, broken XML, bad Json field; unknown fields warn', async () => {
      const msg = async (objectXml: string) =>
        (await call('php', 'save', good, [str('publicName', 'TRACE'), str('objectXml', objectXml)])).messages;
      expect(await msg('')).toEqual([{ type: '3', message: expect.stringContaining('empty') }]);
      expect(await msg('{"id": ')).toEqual([{ type: '3', message: expect.stringContaining('not valid JSON') }]);
      expect(await msg('<PARAM><FLD NAME="id">x</PARAM>')).toEqual([{ type: '3', message: expect.stringContaining('not well-formed') }]);
      expect(await msg('<OTHER/>')).toEqual([{ type: '3', message: expect.stringContaining('PARAM root') }]);
      expect(await msg('<PARAM><FLD NAME="metadata" TYPE="Json">{nope</FLD></PARAM>')).toEqual([
        { type: '3', message: 'TRACE.metadata is not valid JSON' },
      ]);
      const id = uid('warn');
      const r = await call('php', 'save', good, [
        str('publicName', 'TRACE'),
        str(
          'objectXml',
          `<PARAM><GRP ID="TRACE"><FLD NAME="id">${id}</FLD><FLD NAME="name">n</FLD><FLD NAME="status">ERROR</FLD>` +
            `<FLD NAME="startedAt">2026-01-01T00:00:00Z</FLD><FLD NAME="colour">red</FLD></GRP></PARAM>`,
        ),
      ]);
      expect(r.status).toBe(1);
      expect(r.messages).toEqual([{ type: '2', message: 'Unknown field "colour" in TRACE ignored' }]);
    });

    it('is available for TRACE only', async () => {
      const r = await call('php', 'save', good, [str('publicName', 'SPAN'), str('objectXml', '{}')]);
      expect(r.messages).toEqual([{ type: '3', message: 'Operation save is not available for SPAN' }]);
    });
  });

  describe('query', () => {
    const session = uid('q');
    const ids = [uid('q1'), uid('q2'), uid('q3')];

    beforeAll(async () => {
      await save(makeTrace({ id: ids[0], sessionId: session, name: 'Alpha Bot', startedAt: '2026-05-01T00:00:00Z', tags: ['red'] }));
      await save(makeTrace({ id: ids[1], sessionId: session, name: 'beta', status: 'ERROR', startedAt: '2026-05-03T00:00:00Z' }));
      await save(makeTrace({ id: ids[2], sessionId: session, name: 'alphabet', startedAt: '2026-05-02T00:00:00Z', tags: ['red', 'blue'] }));
    });

    const q = (filters: [string, string][], listSize: number | string, ctx: Ctx = good) =>
      call('php', 'query', ctx, [str('publicName', 'TRACE'), keys('objectKeys', filters), int('listSize', listSize)]);

    it('orders by startedAt descending and stops at listSize', async () => {
      expect(lines((await q([['sessionId', session]], 10)).resultXml).map((l) => l.id)).toEqual([ids[1], ids[2], ids[0]]);
      expect(lines((await q([['sessionId', session]], 2)).resultXml).map((l) => l.id)).toEqual([ids[1], ids[2]]);
    });

    it('filters by status, search (case-insensitive substring) and tag', async () => {
      const ids_ = async (f: [string, string][]) => lines((await q([['sessionId', session], ...f], 10)).resultXml).map((l) => l.id);
      expect(await ids_([['status', 'ERROR']])).toEqual([ids[1]]);
      expect(await ids_([['search', 'ALPHA']])).toEqual([ids[2], ids[0]]);
      expect(await ids_([['tag', 'blue']])).toEqual([ids[2]]);
    });

    it('refuses listSize 0 or negative and an unknown filter or status; caps above 1000 with a warning', async () => {
      expect((await q([], 0)).messages).toEqual([{ type: '3', message: 'listSize must be between 1 and 1000, got 0' }]);
      expect((await q([], -3)).status).toBe(0);
      expect((await q([['colour', 'red']], 5)).messages[0].message).toBe(
        'Unknown filter "colour" for TRACE; filters are: status, sessionId, search, tag',
      );
      expect((await q([['status', 'DONE']], 5)).messages[0].message).toMatch(/status.*RUNNING, COMPLETED, ERROR/);
      const capped = await q([['sessionId', session]], 5000);
      expect(capped.status).toBe(1);
      expect(capped.messages).toEqual([{ type: '2', message: expect.stringContaining('maximum of 1000') }]);
      expect(lines(capped.resultXml)).toHaveLength(3);
    });

    it('returns JSON rows with adxwss.optreturn=JSON, indented with adxwss.beautify', async () => {
      const r = await q([['sessionId', session]], 1, { ...good, requestConfig: ' adxwss.optreturn=JSON & adxwss.beautify=true & adxwss.other=1 ' });
      const rows = JSON.parse(r.resultXml);
      expect(rows).toEqual([expect.objectContaining({ id: ids[1], spanCount: 2, status: 'ERROR' })]);
      expect(r.resultXml).toContain('\n  ');
    });
  });

  describe('SPAN, DECISION, EVENT', () => {
    const traceId = uid('kids');
    beforeAll(async () => {
      await save(makeTrace({ id: traceId }));
    });
    const keyed = (op: 'read' | 'query', name: string, kv: [string, string][], listSize = 100) =>
      call('axis', op, good, [str('publicName', name), keys('objectKeys', kv), ...(op === 'query' ? [int('listSize', listSize)] : [])]);

    it('reads one child by traceId and id', async () => {
      const s = await keyed('read', 'SPAN', [['traceId', traceId], ['id', 's2']]);
      expect(fields(s.resultXml, 'SPAN')).toMatchObject({ traceId, id: 's2', parentSpanId: 's1', input: '{"prompt":"hi"}', endedAt: null });
      const d = await keyed('read', 'DECISION', [['traceId', traceId], ['id', 'd1']]);
      expect(fields(d.resultXml, 'DECISION')).toMatchObject({ type: 'TOOL_SELECTION', chosen: '{"tool":"weather"}' });
      const e = await keyed('read', 'EVENT', [['traceId', traceId], ['id', 'e1']]);
      expect(fields(e.resultXml, 'EVENT')).toMatchObject({ spanId: 's2', type: 'RETRY' });
      const missing = await keyed('read', 'SPAN', [['traceId', traceId], ['id', 'zz']]);
      expect(missing).toMatchObject({ status: 0, resultXml: '', messages: [{ type: '3', message: 'Span not found' }] });
    });

    it('queries children of one trace with filters, in detail order', async () => {
      expect(lines((await keyed('query', 'SPAN', [['traceId', traceId]])).resultXml).map((l) => l.id)).toEqual(['s1', 's2']);
      expect(lines((await keyed('query', 'SPAN', [['traceId', traceId], ['type', 'LLM_CALL']])).resultXml).map((l) => l.id)).toEqual(['s2']);
      expect(lines((await keyed('query', 'SPAN', [['traceId', traceId], ['parentSpanId', 's1']])).resultXml)).toHaveLength(1);
      expect(lines((await keyed('query', 'SPAN', [['traceId', traceId]], 1)).resultXml)).toHaveLength(1);
      expect(lines((await keyed('query', 'EVENT', [['traceId', traceId], ['spanId', 's2']])).resultXml).map((l) => l.id)).toEqual(['e1']);
      expect(lines((await keyed('query', 'DECISION', [['traceId', traceId], ['type', 'ROUTING']])).resultXml)).toEqual([]);
    });

    it('names a missing required key or filter, an unknown key, and a bad enum', async () => {
      expect((await keyed('read', 'SPAN', [['id', 's1']])).messages[0].message).toBe('Missing required key "traceId" for SPAN');
      expect((await keyed('query', 'EVENT', [['type', 'ERROR']])).messages[0].message).toBe('Missing required filter "traceId" for EVENT');
      expect((await keyed('read', 'DECISION', [['traceId', traceId], ['id', 'd1'], ['x', '1']])).messages[0].message).toMatch(
        /^Unknown key "x" for DECISION/,
      );
      expect((await keyed('query', 'SPAN', [['traceId', traceId], ['type', 'BAD']])).messages[0].message).toMatch(/span type/);
    });
  });

  describe('callContext and results', () => {
    it('accepts HTTP Basic user:apikey and Bearer instead of the password', async () => {
      const basic = `Basic ${Buffer.from(`someone:${KEY}`).toString('base64')}`;
      const read = (ctx: Ctx, h: Record<string, string>) => call('php', 'run', ctx, [str('publicName', 'HEALTH'), str('inputXml', '')], h);
      expect((await read({ password: '' }, { Authorization: basic })).status).toBe(1);
      expect((await read({ password: null }, { Authorization: `Bearer ${KEY}` })).status).toBe(1);
      expect((await read({ password: '' }, { Authorization: `Bearer nope` })).status).toBe(0);
      expect((await read({ password: '' }, { Authorization: `Basic ${Buffer.from('u:nope').toString('base64')}` })).status).toBe(0);
    });

    it('in open mode accepts any non-empty password, never an empty one', async () => {
      process.env.API_KEYS = '';
      try {
        const run = (password: string) => call('soapui', 'run', { password }, [str('publicName', 'HEALTH'), str('inputXml', '')]);
        expect((await run('anything')).status).toBe(1);
        expect((await run('')).messages).toEqual([{ type: '3', message: 'Authentication failed' }]);
      } finally {
        process.env.API_KEYS = KEY;
      }
    });

    it('logs codeUser, never the password', async () => {
      const info = vi.mocked(console.info);
      info.mockClear();
      await call('php', 'getDescription', { codeUser: 'alice\nINJECTED', password: KEY }, [str('publicName', '')]);
      const line = info.mock.calls.map((c) => c.join(' ')).join('\n');
      expect(line).toContain('user=alice?INJECTED');
      expect(line).not.toContain(KEY);
    });

    it('always reports totalDuration; adxwss.trace.on=on adds database time and records read/written', async () => {
      const plain = await save(makeTrace({ id: uid('ti') }));
      expect(plain.technicalInfos.map((t) => t.type)).toEqual(['totalDuration']);
      expect(plain.technicalInfos[0].message).toMatch(/^\d+$/);
      const traced = await save(makeTrace({ id: uid('ti') }), { ...good, requestConfig: '<![CDATA[adxwss.trace.on=on]]>' });
      const infos = Object.fromEntries(traced.technicalInfos.map((t) => [t.type, t.message]));
      expect(infos).toMatchObject({ totalDuration: expect.stringMatching(/^\d+$/), dbDuration: expect.stringMatching(/^\d+$/) });
      // One trace with one decision point, two spans and one event: 5 written, then read back.
      expect(infos.recordsWritten).toBe('5');
      expect(infos.recordsRead).toBe('5');
      // Failures carry technical infos too.
      const failed = await call('php', 'read', { password: 'x', requestConfig: 'adxwss.trace.on=on' }, [str('publicName', 'TRACE'), keys('objectKeys', [])]);
      expect(failed.technicalInfos.map((t) => t.type)).toEqual(['totalDuration', 'dbDuration', 'recordsRead', 'recordsWritten']);
    });

    it('indents XML with adxwss.beautify=true without touching values', async () => {
      const id = uid('pretty');
      await save(makeTrace({ id, name: '  two  spaces  ' }));
      const r = await call('php', 'read', { ...good, requestConfig: 'adxwss.beautify=true' }, [str('publicName', 'TRACE'), keys('objectKeys', [['id', id]])]);
      expect(r.resultXml.startsWith('<RESULT>\n  <GRP ID="TRACE">\n    <FLD NAME="id" TYPE="Char">')).toBe(true);
      expect(fields(r.resultXml).name).toBe('  two  spaces  ');
    });

    it('names an unknown public name and lists them all for an empty one', async () => {
      const r = await call('dotnet', 'read', good, [str('publicName', 'INVOICE'), keys('objectKeys', [['id', '1']])]);
      expect(r).toMatchObject({ status: 0, resultXml: '', messages: [{ type: '3', message: expect.stringContaining('"INVOICE"') }] });
      const all = await call('dotnet', 'getDescription', good, [str('publicName', '')]);
      for (const name of ['TRACE', 'SPAN', 'DECISION', 'EVENT', 'HEALTH', 'TRACE_STATS', 'DECISION_STATS']) expect(all.resultXml).toContain(`NAM="${name}"`);
      const unsupported = await call('php', 'run', good, [str('publicName', 'TRACE'), str('inputXml', '')]);
      expect(unsupported.messages[0].message).toBe('Operation run is not available for TRACE');
    });

    it('describes every object with TYP, KEY, REQ and VAL', async () => {
      const d = await call('php', 'getDescription', good, [str('publicName', 'SPAN')]);
      const root = parseXml(d.resultXml);
      expect(root.local).toBe('ADXDESC');
      const grp = elementChildren(root).find((e) => e.local === 'GRP')!;
      const byName = Object.fromEntries(elementChildren(grp).map((f) => [getAttr(f, 'NAM'), f]));
      expect(getAttr(byName.traceId, 'KEY')).toBe('1');
      expect(getAttr(byName.name, 'REQ')).toBe('1');
      expect(getAttr(byName.input, 'TYP')).toBe('Json');
      expect(getAttr(byName.type, 'VAL')).toBe('LLM_CALL,TOOL_CALL,MEMORY_OP,CHAIN,AGENT,CUSTOM');
      const trace = await call('php', 'getDescription', good, [str('publicName', 'TRACE')]);
      expect(trace.resultXml).toContain('<TAB NAM="SPANS">');
      expect(trace.resultXml).toContain('<FLD NAM="tags" TYP="Char" LST="1" REQ="1"/>');
    });
  });

  describe('run', () => {
    it('reads parameters from FLDs under PARAM or a GRP, warns on unknown ones, refuses bad dates', async () => {
      const session = uid('run');
      await save(makeTrace({ id: uid('r'), sessionId: session, status: 'ERROR', totalDuration: 100 }));
      await save(makeTrace({ id: uid('r'), sessionId: session, status: 'RUNNING', totalDuration: 300, totalCost: 1 }));
      const run = (inputXml: string) => call('php', 'run', good, [str('publicName', 'TRACE_STATS'), str('inputXml', inputXml)]);
      const r = await run(`<PARAM><FLD NAME="sessionId">${session}</FLD><FLD NAME="colour">x</FLD></PARAM>`);
      expect(r.messages).toEqual([{ type: '2', message: 'Unknown parameter "colour" for TRACE_STATS ignored' }]);
      expect(fields(r.resultXml, 'TRACE_STATS')).toEqual({
        traceCount: '2',
        runningCount: '1',
        completedCount: '0',
        errorCount: '1',
        totalCost: '1.0123',
        totalTokens: '3000',
        avgDuration: '200',
      });
      const windowed = await run(
        `<PARAM><GRP ID="P"><FLD NAME="sessionId">${session}</FLD><FLD NAME="from">2026-01-02T03:04:05Z</FLD><FLD NAME="to">2026-01-02T03:04:05Z</FLD></GRP></PARAM>`,
      );
      expect(fields(windowed.resultXml, 'TRACE_STATS').traceCount).toBe('2');
      expect((await run('<PARAM><FLD NAME="from">soon</FLD></PARAM>')).messages[0]).toMatchObject({ type: '3', message: expect.stringContaining('from') });
      expect((await run('<PARAM><FLD NAME="from">')).messages[0].message).toContain('inputXml is not well-formed');
      const health = await call('php', 'run', good, [str('publicName', 'HEALTH'), str('inputXml', '<PARAM><FLD NAME="x">1</FLD></PARAM>')]);
      expect(health.messages).toEqual([{ type: '2', message: 'Unknown parameter "x" for HEALTH ignored' }]);
    });
  });

  describe('envelope shapes legacy clients send', () => {
    const post = (xml: string, headers: Record<string, string> = {}) => handleSoapPost(deps, xml, new Headers(headers));
    const ns = `xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:wss="urn:crossroads:wss" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"`;
    const ctx = `<callContext><codeUser>u</codeUser><password>${KEY}</password></callContext>`;

    it('accepts qualified parts, nil members, lone members named anything, empty and self-closing arrays', async () => {
      const id = uid('shape');
      await save(makeTrace({ id }));
      const qualified =
        `<soapenv:Envelope ${ns}><soapenv:Body><wss:read><wss:callContext><wss:password>${KEY}</wss:password></wss:callContext>` +
        `<wss:publicName>TRACE</wss:publicName><wss:objectKeys><wss:whatever><wss:key>id</wss:key><wss:value>${id}</wss:value></wss:whatever>` +
        `<item xsi:nil="true"/></wss:objectKeys></wss:read></soapenv:Body></soapenv:Envelope>`;
      const r = parseResult((await post(qualified)).body);
      expect(r.status).toBe(1);
      expect(fields(r.resultXml).id).toBe(id);

      for (const empty of ['<objectKeys/>', '<objectKeys></objectKeys>', '<objectKeys xsi:nil="true"/>', '<objectKeys soapenc:arrayType="wss:CSvcParamKeyValue[0]" xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/"/>']) {
        const xml = `<soapenv:Envelope ${ns}><soapenv:Body><wss:read>${ctx}<publicName>TRACE</publicName>${empty}</wss:read></soapenv:Body></soapenv:Envelope>`;
        expect(parseResult((await post(xml)).body).messages[0].message).toBe('Missing required key "id" for TRACE');
      }
    });

    it('takes an int listSize with or without xsi:type, with spaces, and refuses anything else as a Client fault', async () => {
      const q = (listSize: string) =>
        post(`<soapenv:Envelope ${ns}><soapenv:Body><wss:query>${ctx}<publicName>TRACE</publicName><objectKeys/>${listSize}</wss:query></soapenv:Body></soapenv:Envelope>`);
      expect((await q('<listSize> 3 </listSize>')).status).toBe(200);
      expect((await q('<listSize xsi:type="xsd:int" xmlns:xsd="http://www.w3.org/2001/XMLSchema">3</listSize>')).status).toBe(200);
      for (const bad of ['<listSize>three</listSize>', '<listSize>1.5</listSize>', '<listSize>99999999999</listSize>', '<listSize xsi:nil="true"/>', '']) {
        const res = await q(bad);
        expect(res.status).toBe(500);
        const fault = parseFault(res.body);
        expect(fault.faultcode).toMatchObject({ ns: 'http://schemas.xmlsoap.org/soap/envelope/', local: 'Client' });
        expect(fault.faultstring).toContain('listSize');
      }
    });

    it('faults Client on a missing callContext or publicName and on a structure where a string belongs', async () => {
      const missing = await post(`<soapenv:Envelope ${ns}><soapenv:Body><wss:getDescription><publicName>TRACE</publicName></wss:getDescription></soapenv:Body></soapenv:Envelope>`);
      expect(parseFault(missing.body)).toMatchObject({ faultcode: { local: 'Client' }, faultstring: 'Missing part callContext in getDescription' });
      const wrong = await post(`<soapenv:Envelope ${ns}><soapenv:Body><wss:getDescription>${ctx}<publicName><a>1</a></publicName></wss:getDescription></soapenv:Body></soapenv:Envelope>`);
      expect(parseFault(wrong.body).faultcode.local).toBe('Client');
    });

    it('keeps a large objectXml intact (well past sax buffer sizes)', async () => {
      const id = uid('big');
      const big = 'x'.repeat(200_000) + '<&>' + 'y'.repeat(100_000);
      const trace = makeTrace({ id, metadata: { big } });
      const r = await call('php', 'save', good, [str('publicName', 'TRACE'), str('objectXml', JSON.stringify(trace))]);
      expect(r.status).toBe(1);
      expect(JSON.parse(fields(r.resultXml).metadata as string).big).toBe(big);
    });

    it('answers an unexpected failure with a generic Server fault, logging the detail', async () => {
      const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
      const broken: ServiceDeps = { ...deps, context: async () => Promise.reject(new Error('secret detail at /srv/db.ts:12')) };
      const res = await handleSoapPost(broken, phpEnvelope('read', good, [str('publicName', 'TRACE'), keys('objectKeys', [['id', 'x']])]), new Headers());
      expect(res.status).toBe(500);
      expect(parseFault(res.body)).toEqual({
        faultcode: { ns: 'http://schemas.xmlsoap.org/soap/envelope/', local: 'Server', raw: 'soapenv:Server' },
        faultstring: 'Internal server error',
      });
      expect(res.body).not.toContain('secret');
      expect(error).toHaveBeenCalled();
      error.mockRestore();
    });
  });
});
