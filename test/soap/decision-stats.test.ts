// run DECISION_STATS end to end over a real database (PGlite, and PostgreSQL through
// scripts/with-postgres.sh): the same figures as GET /api/insights/decisions on the
// dataset of test/support/insights-dataset.ts, as XML (GRP + TABs) and as JSON; bad
// parameters as status 0 naming them; and its getDescription.
import { contextAs } from '@/test/support/context';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { GET as getDecisions } from '@/app/api/insights/decisions/route';
import { useDatabase } from '@/lib/db';
import type { DecisionInsights } from '@/lib/features/insights/types';
import type { Database } from '@/lib/db/open';
import { testDatabases } from '@/test/support/databases';
import { insightsDataset, WINDOW } from '@/test/support/insights-dataset';
import { ingestTraces } from '@/lib/features/ingest/ingest';
import { parseIngestBody } from '@/lib/features/ingest/validate';
import { formatDecimal } from '@/lib/transports/soap/codec';
import { handleSoapPost, type ServiceDeps } from '@/lib/transports/soap/service';
import { STYLES, parseResult, str, type Ctx } from '@/test/support/soap';
import { elementChildren, getAttr, parseXml, textContent, type XmlElement } from '@/lib/transports/soap/xml';
import { testContext } from '@/test/support/context';
import { resolvePrincipal } from '@/lib/features/access/principal';

const KEY = 'soap-decision-stats-key';
const good: Ctx = { codeUser: 'tester', password: KEY };
const LIMITS = { maxBatchTraces: 1000, maxChildrenPerTrace: 10_000 } as Parameters<typeof parseIngestBody>[1];
const IN_WINDOW = `<PARAM><FLD NAME="from" TYPE="DateTime">${WINDOW.from}</FLD><FLD NAME="to" TYPE="DateTime">${WINDOW.to}</FLD></PARAM>`;

type Row = Record<string, string | null>;

function fieldsOf(el: XmlElement): Row {
  return Object.fromEntries(
    elementChildren(el)
      .filter((f) => f.local === 'FLD')
      .map((f) => [getAttr(f, 'NAME')!, getAttr(f, 'NULL') === 'true' ? null : textContent(f)]),
  );
}

/** The RESULT document as { GRP id: fields, TAB id: rows }, checking TYPEs, SIZE and NUM on the way. */
function parseStats(resultXml: string) {
  const root = parseXml(resultXml);
  expect(root.local).toBe('RESULT');
  const out: { groups: Record<string, Row>; tabs: Record<string, Row[]> } = { groups: {}, tabs: {} };
  for (const el of elementChildren(root)) {
    for (const f of el.local === 'GRP' ? elementChildren(el) : elementChildren(el).flatMap(elementChildren)) {
      expect(['Char', 'Decimal', 'DateTime']).toContain(getAttr(f, 'TYPE'));
    }
    if (el.local === 'GRP') out.groups[getAttr(el, 'ID')!] = fieldsOf(el);
    else {
      const lines = elementChildren(el);
      expect(getAttr(el, 'SIZE')).toBe(String(lines.length));
      lines.forEach((lin, i) => expect(getAttr(lin, 'NUM')).toBe(String(i + 1)));
      out.tabs[getAttr(el, 'ID')!] = lines.map(fieldsOf);
    }
  }
  return out;
}

/** What the XML must hold for the JSON API's figures: numbers as formatDecimal writes them, null as NULL. */
function asXml(d: DecisionInsights) {
  const dec = (n: number | null) => (n === null ? null : formatDecimal(n));
  return {
    groups: {
      DECISION_STATS: { from: d.from, to: d.to, traces: dec(d.totals.traces), decisionPoints: dec(d.totals.decisionPoints) },
    },
    tabs: {
      BY_TYPE: d.byType.map((t) => ({
        type: t.type,
        count: dec(t.count),
        traces: dec(t.traces),
        avgDurationMs: dec(t.avgDurationMs),
        avgCostUsd: dec(t.avgCostUsd),
        errorTraceShare: dec(t.errorTraceShare),
      })),
      OPTIONS: d.options.map((o) => ({
        type: o.type,
        label: o.label,
        chosen: dec(o.chosen),
        offered: dec(o.offered),
        errorTraceShareWhenChosen: dec(o.errorTraceShareWhenChosen),
      })),
      RATES_BY_TRACE_NAME: d.ratesByTraceName.map((r) => ({
        name: r.name,
        traces: dec(r.traces),
        retryPer100: dec(r.retryPer100),
        escalationPer100: dec(r.escalationPer100),
      })),
    },
  };
}

describe.each(testDatabases())('SOAP run DECISION_STATS on $name', (target) => {
  let database: Database;
  let deps: ServiceDeps;
  const savedKeys = process.env.API_KEYS;

  beforeAll(async () => {
    process.env.API_KEYS = KEY;
    database = await target.open();
    useDatabase(database);
    deps = {
      context: async (headers, envelopeKey) => contextAs(database, await resolvePrincipal(headers, { kind: 'soap', envelopeKey })),
      limits: () => ({ maxBodyBytes: 5_000_000, maxBatchTraces: 10, maxChildrenPerTrace: 500, maxInflightBodyBytes: 24_000_000, admissionWaitMs: 1_000 }),
    };
    await ingestTraces(testContext(database), parseIngestBody(insightsDataset().body, LIMITS));
    vi.spyOn(console, 'info').mockImplementation(() => undefined);
  });

  afterAll(async () => {
    process.env.API_KEYS = savedKeys;
    await database?.close();
    vi.restoreAllMocks();
  });

  async function run(inputXml: string, ctx: Ctx = good, style: keyof typeof STYLES = 'php') {
    const res = await handleSoapPost(deps, STYLES[style]('run', ctx, [str('publicName', 'DECISION_STATS'), str('inputXml', inputXml)]), new Headers());
    if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${res.body}`);
    return parseResult(res.body);
  }

  async function api(query: string): Promise<DecisionInsights> {
    const res = await getDecisions(
      new Request(`http://test/api/insights/decisions?${query}`, { headers: { authorization: `Bearer ${KEY}` } }),
      undefined,
    );
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as DecisionInsights;
  }

  it('returns the figures of GET /api/insights/decisions as a GRP and three TABs', async () => {
    const r = await run(IN_WINDOW);
    expect(r).toMatchObject({ status: 1, messages: [] });
    const stats = parseStats(r.resultXml);
    expect(stats).toEqual(asXml(await api(`from=${WINDOW.from}&to=${WINDOW.to}`)));
    // A few figures worked out by hand (test/support/insights-dataset.ts; app/api/insights/decisions/route.test.ts).
    expect(stats.groups.DECISION_STATS).toEqual({ from: WINDOW.from, to: WINDOW.to, traces: '5', decisionPoints: '11' });
    expect(stats.tabs.BY_TYPE.map((t) => t.type)).toEqual(['TOOL_SELECTION', 'ESCALATION', 'RETRY', 'ROUTING']);
    expect(stats.tabs.BY_TYPE[0]).toMatchObject({ count: '5', traces: '3', avgDurationMs: '20' });
    expect(Number(stats.tabs.BY_TYPE[0].avgCostUsd)).toBeCloseTo(0.03, 12);
    expect(Number(stats.tabs.BY_TYPE[0].errorTraceShare)).toBeCloseTo(2 / 3, 12);
    // RETRY has no cost at all: NULL, as the codec writes nulls.
    expect(stats.tabs.BY_TYPE[2]).toMatchObject({ type: 'RETRY', avgDurationMs: '5', avgCostUsd: null, errorTraceShare: '0.5' });
    expect(r.resultXml).toContain('<FLD NAME="avgCostUsd" TYPE="Decimal" NULL="true"/>');
    expect(stats.tabs.OPTIONS[0]).toEqual({ type: 'TOOL_SELECTION', label: 'search', chosen: '3', offered: '4', errorTraceShareWhenChosen: '0.5' });
    expect(stats.tabs.OPTIONS.slice(-3)).toEqual([
      { type: 'ESCALATION', label: 'bot', chosen: '0', offered: '1', errorTraceShareWhenChosen: null },
      { type: 'RETRY', label: '2.5', chosen: '0', offered: '1', errorTraceShareWhenChosen: null },
      { type: 'TOOL_SELECTION', label: 'web', chosen: '0', offered: '1', errorTraceShareWhenChosen: null },
    ]);
    expect(stats.tabs.RATES_BY_TRACE_NAME).toEqual([
      { name: 'checkout', traces: '2', retryPer100: '100', escalationPer100: '50' },
      { name: 'refund', traces: '2', retryPer100: '0', escalationPer100: '50' },
      { name: 'chat', traces: '1', retryPer100: '0', escalationPer100: '0' },
    ]);
  });

  it('applies name and tag (FLDs under PARAM or a GRP) like the API, and answers JSON with adxwss.optreturn=JSON', async () => {
    const filtered = await run(
      `<PARAM><GRP ID="IN"><FLD NAME="from">${WINDOW.from}</FLD><FLD NAME="to">${WINDOW.to}</FLD><FLD NAME="name">refund</FLD><FLD NAME="tag">prod</FLD></GRP></PARAM>`,
      good,
      'axis',
    );
    expect(filtered.status).toBe(1);
    const expected = await api(`from=${WINDOW.from}&to=${WINDOW.to}&name=refund&tag=prod`);
    expect(expected.totals).toEqual({ traces: 1, decisionPoints: 2 }); // T4
    expect(parseStats(filtered.resultXml)).toEqual(asXml(expected));

    const tagged = await run(`<PARAM><FLD NAME="from">${WINDOW.from}</FLD><FLD NAME="to">${WINDOW.to}</FLD><FLD NAME="tag">prod</FLD></PARAM>`);
    expect(parseStats(tagged.resultXml).groups.DECISION_STATS).toMatchObject({ traces: '3', decisionPoints: '9' });

    const res = await handleSoapPost(
      deps,
      STYLES.dotnet('run', { ...good, requestConfig: 'adxwss.optreturn=JSON' }, [str('publicName', 'DECISION_STATS'), str('inputXml', IN_WINDOW)]),
      new Headers(),
    );
    const json = parseResult(res.body);
    expect(json.status).toBe(1);
    expect(JSON.parse(json.resultXml)).toEqual(await api(`from=${WINDOW.from}&to=${WINDOW.to}`));
  });

  it('defaults to the last 24 hours, and NULL or empty FLDs are absent', async () => {
    const before = Date.now();
    const r = await run('');
    expect(r.status).toBe(1);
    const { from, to, traces } = parseStats(r.resultXml).groups.DECISION_STATS;
    expect(Date.parse(to!)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(to!) - Date.parse(from!)).toBe(24 * 60 * 60 * 1000);
    expect(traces).toBe('0');
    const nulls = await run(`<PARAM><FLD NAME="from">${WINDOW.from}</FLD><FLD NAME="to">${WINDOW.to}</FLD><FLD NAME="name" NULL="true"/><FLD NAME="tag"></FLD></PARAM>`);
    expect(parseStats(nulls.resultXml).groups.DECISION_STATS).toMatchObject({ traces: '5', decisionPoints: '11' });
  });

  it('refuses bad parameters as status 0 naming them; warns on unknown ones', async () => {
    const bad = async (inputXml: string, message: string | RegExp) => {
      const r = await run(inputXml);
      expect(r).toMatchObject({ status: 0, resultXml: '' });
      expect(r.messages.at(-1)?.type).toBe('3');
      expect(r.messages.at(-1)?.message).toMatch(message);
    };
    await bad('<PARAM><FLD NAME="from">soon</FLD></PARAM>', /^Invalid from parameter: must be an ISO 8601 date-time/);
    await bad('<PARAM><FLD NAME="to">2026-13-01T00:00:00Z</FLD></PARAM>', /^Invalid to parameter: must be an ISO 8601 date-time/);
    await bad(`<PARAM><FLD NAME="from">${WINDOW.to}</FLD><FLD NAME="to">${WINDOW.from}</FLD></PARAM>`, 'Invalid from parameter: must not be after to');
    await bad('<PARAM><LST NAME="tag"><ITM>prod</ITM></LST></PARAM>', 'Invalid tag parameter: must be a FLD, not a LST');
    await bad('<PARAM><FLD NAME="from">', /inputXml is not well-formed/);

    const r = await run(`<PARAM><FLD NAME="from">${WINDOW.from}</FLD><FLD NAME="to">${WINDOW.to}</FLD><FLD NAME="status">ERROR</FLD></PARAM>`);
    expect(r.status).toBe(1);
    expect(r.messages).toEqual([{ type: '2', message: 'Unknown parameter "status" for DECISION_STATS ignored' }]);
    expect(parseStats(r.resultXml).groups.DECISION_STATS.traces).toBe('5');
  });

  it('needs valid credentials, and counts records read with adxwss.trace.on', async () => {
    expect(await run(IN_WINDOW, { password: 'wrong' })).toMatchObject({ status: 0, messages: [{ type: '3', message: 'Authentication failed' }] });
    const traced = await run(IN_WINDOW, { ...good, requestConfig: 'adxwss.trace.on=on' });
    expect(Object.fromEntries(traced.technicalInfos.map((t) => [t.type, t.message]))).toMatchObject({ recordsRead: '16', recordsWritten: '0' });
  });

  it('is described: its parameters, the totals GRP and the BY_TYPE, OPTIONS, RATES_BY_TRACE_NAME, REVIEWS, SCORES TABs', async () => {
    const res = await handleSoapPost(deps, STYLES.soapui('getDescription', good, [str('publicName', 'decision_stats')]), new Headers());
    const d = parseResult(res.body);
    expect(d.status).toBe(1);
    const types = 'VAL="TOOL_SELECTION,ROUTING,RETRY,ESCALATION,MEMORY_RETRIEVAL,PLANNING,CUSTOM"';
    expect(d.resultXml).toBe(
      '<ADXDESC NAM="DECISION_STATS">' +
        '<GRP NAM="PARAM"><FLD NAM="from" TYP="DateTime"/><FLD NAM="to" TYP="DateTime"/><FLD NAM="name" TYP="Char"/><FLD NAM="tag" TYP="Char"/></GRP>' +
        '<GRP NAM="DECISION_STATS"><FLD NAM="from" TYP="DateTime" RO="1"/><FLD NAM="to" TYP="DateTime" RO="1"/>' +
        '<FLD NAM="traces" TYP="Decimal" RO="1"/><FLD NAM="decisionPoints" TYP="Decimal" RO="1"/></GRP>' +
        `<TAB NAM="BY_TYPE"><FLD NAM="type" TYP="Char" RO="1" ${types}/><FLD NAM="count" TYP="Decimal" RO="1"/>` +
        '<FLD NAM="traces" TYP="Decimal" RO="1"/><FLD NAM="avgDurationMs" TYP="Decimal" RO="1"/><FLD NAM="avgCostUsd" TYP="Decimal" RO="1"/>' +
        '<FLD NAM="errorTraceShare" TYP="Decimal" RO="1"/></TAB>' +
        `<TAB NAM="OPTIONS"><FLD NAM="type" TYP="Char" RO="1" ${types}/><FLD NAM="label" TYP="Char" RO="1"/>` +
        '<FLD NAM="chosen" TYP="Decimal" RO="1"/><FLD NAM="offered" TYP="Decimal" RO="1"/><FLD NAM="errorTraceShareWhenChosen" TYP="Decimal" RO="1"/></TAB>' +
        '<TAB NAM="RATES_BY_TRACE_NAME"><FLD NAM="name" TYP="Char" RO="1"/><FLD NAM="traces" TYP="Decimal" RO="1"/>' +
        '<FLD NAM="retryPer100" TYP="Decimal" RO="1"/><FLD NAM="escalationPer100" TYP="Decimal" RO="1"/></TAB>' +
        `<TAB NAM="REVIEWS"><FLD NAM="type" TYP="Char" RO="1" ${types}/><FLD NAM="label" TYP="Char" RO="1"/>` +
        '<FLD NAM="reviewed" TYP="Decimal" RO="1"/><FLD NAM="judgedRight" TYP="Decimal" RO="1"/><FLD NAM="judgedRightShare" TYP="Decimal" RO="1"/>' +
        '<FLD NAM="betterOptions" TYP="Json" RO="1"/></TAB>' +
        '<TAB NAM="SCORES"><FLD NAM="name" TYP="Char" RO="1"/><FLD NAM="dataType" TYP="Char" RO="1" VAL="NUMERIC,CATEGORICAL,BOOLEAN"/>' +
        '<FLD NAM="count" TYP="Decimal" RO="1"/><FLD NAM="average" TYP="Decimal" RO="1"/><FLD NAM="categories" TYP="Json" RO="1"/></TAB>' +
        '</ADXDESC>',
    );
    const all = parseResult((await handleSoapPost(deps, STYLES.php('getDescription', good, [str('publicName', '')]), new Headers())).body);
    expect(all.resultXml).toContain('<OBJ NAM="DECISION_STATS" OPS="getDescription,run"/>');
  });
});
