// run SCORE end to end over a real database (PGlite, and PostgreSQL through
// scripts/with-postgres.sh), in the envelope styles real clients send: one score saved on
// each kind of target and answered as stored, its values read by DATA_TYPE, failures as
// status 0 naming the FLD, a trace read carrying its scores in a SCORES TAB, DECISION_STATS
// gaining its REVIEWS and SCORES TABs, and the description.
import { contextAs } from '@/test/support/context';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { resolvePrincipal } from '@/lib/features/access/principal';
import { useDatabase } from '@/lib/db';
import { handleSoapPost, type ServiceDeps } from '@/lib/transports/soap/service';
import { elementChildren, getAttr, parseXml, textContent, type XmlElement } from '@/lib/transports/soap/xml';
import type { Database } from '@/lib/db/open';
import { ingestTraces } from '@/lib/features/ingest/ingest';
import { parseIngestBody } from '@/lib/features/ingest/validate';
import { testContext } from '@/test/support/context';
import { testDatabases } from '@/test/support/databases';
import { makeTrace, uid } from '@/test/support/fixtures';
import { scoreCount } from '@/test/support/scores';
import { keys, parseResult, STYLES, str, type Ctx } from '@/test/support/soap';

const KEY = 'soap-score-key';
const good: Ctx = { codeUser: 'tester', password: KEY };
const LIMITS = { maxBatchTraces: 1000, maxChildrenPerTrace: 10_000 } as Parameters<typeof parseIngestBody>[1];

type Row = Record<string, string | null>;

function fieldsOf(el: XmlElement): Row {
  return Object.fromEntries(
    elementChildren(el)
      .filter((f) => f.local === 'FLD')
      .map((f) => [getAttr(f, 'NAME')!, getAttr(f, 'NULL') === 'true' ? null : textContent(f)]),
  );
}

function groupOf(resultXml: string, id: string): Row {
  const grp = elementChildren(parseXml(resultXml)).find((e) => e.local === 'GRP' && getAttr(e, 'ID') === id);
  if (!grp) throw new Error(`no GRP ${id} in ${resultXml}`);
  return fieldsOf(grp);
}

function tabOf(resultXml: string, id: string): Row[] | undefined {
  const tab = elementChildren(parseXml(resultXml)).find((e) => e.local === 'TAB' && getAttr(e, 'ID') === id);
  return tab && elementChildren(tab).map(fieldsOf);
}

const param = (fields: Record<string, string>) =>
  `<PARAM>${Object.entries(fields)
    .map(([name, value]) => `<FLD NAME="${name}" TYPE="Char">${value.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;')}</FLD>`)
    .join('')}</PARAM>`;

describe.each(testDatabases())('SOAP run SCORE on $name', (target) => {
  let database: Database;
  let deps: ServiceDeps;
  const traceId = uid('soap-scored');
  const savedKeys = process.env.API_KEYS;

  beforeAll(async () => {
    process.env.API_KEYS = KEY;
    database = await target.open();
    useDatabase(database);
    deps = {
      context: async (headers, envelopeKey) => contextAs(database, await resolvePrincipal(headers, { kind: 'soap', envelopeKey })),
      limits: () => ({ maxBodyBytes: 5_000_000, maxBatchTraces: 10, maxChildrenPerTrace: 500, maxInflightBodyBytes: 24_000_000, admissionWaitMs: 1_000 }),
    };
    await ingestTraces(testContext(database), parseIngestBody(JSON.stringify({ traces: [makeTrace({ id: traceId, sessionId: `${traceId}-session` })] }), LIMITS));
    vi.spyOn(console, 'info').mockImplementation(() => undefined);
  });
  afterAll(async () => {
    process.env.API_KEYS = savedKeys;
    await database?.close();
    vi.restoreAllMocks();
  });

  async function call(op: string, parts: Parameters<typeof STYLES.php>[2], style: keyof typeof STYLES = 'php', ctx: Ctx = good) {
    const res = await handleSoapPost(deps, STYLES[style](op, ctx, parts), new Headers());
    if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${res.body}`);
    return parseResult(res.body);
  }
  const run = (fields: Record<string, string>, style: keyof typeof STYLES = 'php') =>
    call('run', [str('publicName', 'SCORE'), str('inputXml', param(fields))], style);

  it.each(['php', 'axis', 'dotnet', 'soapui'] as const)('saves one score and answers it as stored (%s)', async (style) => {
    const r = await run({ TRACE_ID: traceId, NAME: `quality-${style}`, VALUE: '0.75', COMMENT: 'fine <really> & "good"' }, style);
    expect(r).toMatchObject({ status: 1, messages: [] });
    expect(groupOf(r.resultXml, 'SCORE')).toMatchObject({
      traceId,
      spanId: null,
      decisionPointId: null,
      sessionId: null,
      name: `quality-${style}`,
      value: '0.75',
      dataType: 'NUMERIC',
      comment: 'fine <really> & "good"',
      source: 'API',
      authorKind: 'key',
      authorName: 'API_KEYS',
    });
  });

  it('reads VALUE by DATA_TYPE, or from its text, on every kind of target', async () => {
    const cases: Array<[Record<string, string>, Row]> = [
      [{ TRACE_ID: traceId, SPAN_ID: 's1', NAME: 'helpful', VALUE: 'true' }, { spanId: 's1', value: 'true', dataType: 'BOOLEAN' }],
      [{ TRACE_ID: traceId, DECISION_ID: 'd1', NAME: 'decision.correct', VALUE: '0', DATA_TYPE: 'boolean' }, { decisionPointId: 'd1', value: 'false', dataType: 'BOOLEAN' }],
      [{ SESSION_ID: `${traceId}-session`, NAME: 'tone', VALUE: 'curt' }, { traceId: null, sessionId: `${traceId}-session`, value: 'curt', dataType: 'CATEGORICAL' }],
      [{ TRACE_ID: traceId, NAME: 'code', VALUE: '42', DATA_TYPE: 'CATEGORICAL' }, { value: '42', dataType: 'CATEGORICAL' }],
    ];
    for (const [fields, expected] of cases) {
      const r = await run(fields);
      expect(r.status, JSON.stringify(r.messages)).toBe(1);
      expect(groupOf(r.resultXml, 'SCORE')).toMatchObject(expected);
    }
  });

  it.each([
    [{ TRACE_ID: 'nope', NAME: 'n', VALUE: '1' }, 'TRACE_ID: trace "nope" not found'],
    [{ NAME: 'n', VALUE: '1' }, 'TRACE_ID is required (or sessionId alone, for a session\'s score)'],
    [{ TRACE_ID: 't', NAME: 'n' }, 'VALUE is required'],
    [{ TRACE_ID: 't', NAME: 'n', VALUE: 'x', DATA_TYPE: 'NUMERIC' }, 'VALUE must be a decimal number for DATA_TYPE NUMERIC'],
    [{ TRACE_ID: 't', NAME: 'n', VALUE: '1', DATA_TYPE: 'TEXT' }, 'DATA_TYPE is invalid ("TEXT"): must be one of NUMERIC, CATEGORICAL, BOOLEAN'],
    [{ TRACE_ID: 't', SPAN_ID: 's', DECISION_ID: 'd', NAME: 'n', VALUE: '1' }, 'DECISION_ID cannot be given with spanId: a score has one target'],
  ])('a bad call is status 0 naming the FLD: %j', async (fields, message) => {
    const before = await scoreCount(database);
    const r = await run(fields);
    expect(r).toMatchObject({ status: 0, resultXml: '', messages: [{ type: '3', message }] });
    expect(await scoreCount(database)).toBe(before);
  });

  it('warns about unknown FLDs, and refuses a key without ingest before any work', async () => {
    const r = await run({ TRACE_ID: traceId, NAME: 'n', VALUE: '1', COLOUR: 'red' });
    expect(r).toMatchObject({ status: 1, messages: [{ type: '2', message: 'Unknown parameter "COLOUR" for SCORE ignored' }] });
    const bad = await call('run', [str('publicName', 'SCORE'), str('inputXml', param({ TRACE_ID: traceId, NAME: 'n', VALUE: '1' }))], 'php', { codeUser: 'x', password: 'wrong' });
    expect(bad).toMatchObject({ status: 0, messages: [{ type: '3', message: 'Authentication failed' }] });
  });

  it('a trace read carries its scores in a SCORES TAB; DECISION_STATS its REVIEWS and SCORES', async () => {
    const read = await call('read', [str('publicName', 'TRACE'), keys('objectKeys', [['id', traceId]])]);
    expect(read.status).toBe(1);
    const scores = tabOf(read.resultXml, 'SCORES')!;
    expect(scores.map((s) => s.name)).toEqual(expect.arrayContaining(['quality-php', 'helpful', 'decision.correct', 'code']));
    expect(scores.some((s) => s.sessionId !== null)).toBe(false);

    const from = '2026-01-01T00:00:00Z';
    const to = '2026-01-03T00:00:00Z';
    const stats = await call('run', [str('publicName', 'DECISION_STATS'), str('inputXml', `<PARAM><FLD NAME="from">${from}</FLD><FLD NAME="to">${to}</FLD></PARAM>`)]);
    expect(stats.status).toBe(1);
    expect(tabOf(stats.resultXml, 'REVIEWS')).toEqual([
      { type: 'TOOL_SELECTION', label: 'weather', reviewed: '1', judgedRight: '0', judgedRightShare: '0', betterOptions: '[]' },
    ]);
    expect(tabOf(stats.resultXml, 'SCORES')).toContainEqual({ name: 'helpful', dataType: 'BOOLEAN', count: '1', average: '1', categories: '[{"value":"true","count":1}]' });

    const description = await call('getDescription', [str('publicName', 'score')]);
    expect(description.resultXml).toContain('<GRP NAM="PARAM"><FLD NAM="TRACE_ID" TYP="Char"/>');
    expect(description.resultXml).toContain('<FLD NAM="authorName" TYP="Char" RO="1"/>');
  });
});
