// Interoperability of the SOAP service with real legacy clients, against the production
// build: PHP SoapClient, Python zeep and suds, Apache Axis 1.4 (WSDL2Java stubs) and a
// .NET proxy (Mono's wsdl + System.Web.Services).
// Each client script (e2e/soap-clients) loads ?wsdl, calls every operation and prints
// JSON; the assertions below are the same for every client.
// Needs php-cli php-soap python3-zeep python3-suds; Axis (libaxis-java + a JDK) and .NET
// (mono-devel) run when installed and are reported as skipped otherwise.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';
import { E2E_API_KEY } from '../playwright.config';
import { elementChildren, getAttr, parseXml, textContent, type XmlElement } from '@/lib/transports/soap/xml';

const run = promisify(execFile);
// Playwright runs from the repository root.
const dir = path.resolve('e2e', 'soap-clients');
const python = process.env.SOAP_PYTHON || (existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3');

interface Result {
  status: number;
  resultXml: string;
  messages: { type: string; message: string }[];
  technicalInfos: { type: string; message: string }[];
}
type Outcome = Result | { fault: { faultcode: string; faultstring: string } } | { error: string };
type Report = Record<string, Outcome> & { client: string; functions: string[]; nasty: string };

interface Client {
  command(base: string, prefix: string): [string, string[]];
  /** Set for the optional toolkits: why the test is skipped when it is missing. */
  missing?: () => string | undefined;
}

const CLIENTS: Record<string, Client> = {
  php: { command: (base, prefix) => ['php', [path.join(dir, 'php-client.php'), base, E2E_API_KEY, prefix]] },
  zeep: { command: (base, prefix) => [python, [path.join(dir, 'python-client.py'), 'zeep', base, E2E_API_KEY, prefix]] },
  suds: { command: (base, prefix) => [python, [path.join(dir, 'python-client.py'), 'suds', base, E2E_API_KEY, prefix]] },
  axis: {
    command: (base, prefix) => ['bash', [path.join(dir, 'axis', 'run.sh'), base, E2E_API_KEY, prefix]],
    missing: () => (existsSync('/usr/share/java/axis.jar') ? undefined : 'libaxis-java (and a JDK) not installed'),
  },
  dotnet: {
    command: (base, prefix) => ['bash', [path.join(dir, 'dotnet', 'run.sh'), base, E2E_API_KEY, prefix]],
    missing: () => (existsSync('/usr/bin/mcs') && existsSync('/usr/bin/wsdl') ? undefined : 'mono-devel not installed'),
  },
};

function ok(outcome: Outcome | undefined, name: string): Result {
  expect(outcome, `${name} missing`).toBeDefined();
  expect(outcome, `${name} ended in a fault or error: ${JSON.stringify(outcome)}`).toHaveProperty('status');
  const r = outcome as Result;
  expect(r.technicalInfos[0]?.type, `${name} has no totalDuration`).toBe('totalDuration');
  expect(r.technicalInfos[0].message).toMatch(/^\d+$/);
  return r;
}

function success(outcome: Outcome | undefined, name: string): Result {
  const r = ok(outcome, name);
  expect(r.messages.filter((m) => m.type === '3'), `${name}: ${JSON.stringify(r.messages)}`).toEqual([]);
  expect(r.status, name).toBe(1);
  return r;
}

function failure(outcome: Outcome | undefined, name: string, message: string | RegExp): void {
  const r = ok(outcome, name);
  expect(r.status, name).toBe(0);
  expect(r.resultXml, name).toBe('');
  expect(r.messages.at(-1)?.type, name).toBe('3');
  expect(r.messages.at(-1)?.message, name).toMatch(message);
}

/** FLD/LST values of a GRP (or of LIN rows) in a RESULT document. */
function fieldsOf(el: XmlElement): Record<string, string | null | string[]> {
  const out: Record<string, string | null | string[]> = {};
  for (const f of elementChildren(el)) {
    const name = getAttr(f, 'NAME')!;
    if (f.local === 'LST') out[name] = elementChildren(f).map(textContent);
    else if (f.local === 'FLD') out[name] = getAttr(f, 'NULL') === 'true' ? null : textContent(f);
  }
  return out;
}
const group = (xml: string, id: string) => fieldsOf(elementChildren(parseXml(xml)).find((e) => e.local === 'GRP' && getAttr(e, 'ID') === id)!);
const rows = (xml: string) => elementChildren(parseXml(xml)).filter((e) => e.local === 'LIN').map(fieldsOf);
const tab = (xml: string, id: string) => elementChildren(parseXml(xml)).find((e) => e.local === 'TAB' && getAttr(e, 'ID') === id)!;

for (const [client, { command, missing }] of Object.entries(CLIENTS)) {
  test(`${client} calls every operation through the WSDL`, async ({ baseURL }) => {
    const why = missing?.();
    test.skip(why !== undefined, why);
    test.setTimeout(120_000);
    const prefix = `${client}-${Date.now().toString(36)}`;
    const [file, args] = command(baseURL!, prefix);
    const { stdout } = await run(file, args, { timeout: 100_000, maxBuffer: 10 * 1024 * 1024 });
    const report = JSON.parse(stdout) as Report;
    const xmlId = `${prefix}-xml`;
    const jsonId = `${prefix}-json`;

    expect(report.functions.map((f) => f.replace(/^\S+ (\w+)\(.*$/, '$1')).sort()).toEqual(['getDescription', 'query', 'read', 'run', 'save']);

    const all = success(report.describeAll, 'describeAll');
    for (const name of ['TRACE', 'SPAN', 'DECISION', 'EVENT', 'HEALTH', 'TRACE_STATS']) expect(all.resultXml).toContain(`NAM="${name}"`);
    expect(success(report.describeTrace, 'describeTrace').resultXml).toContain('<FLD NAM="id" TYP="Char" KEY="1" REQ="1"/>');

    const savedXml = success(report.saveXml, 'saveXml');
    expect(group(savedXml.resultXml, 'TRACE').id).toBe(xmlId);
    const infos = Object.fromEntries(savedXml.technicalInfos.map((t) => [t.type, t.message]));
    expect(infos).toMatchObject({ recordsWritten: '2', dbDuration: expect.stringMatching(/^\d+$/) });
    expect(group(success(report.saveJson, 'saveJson').resultXml, 'TRACE').id).toBe(jsonId);
    failure(report.saveDuplicate, 'saveDuplicate', 'Duplicate trace ID detected');

    const read = success(report.readXml, 'readXml');
    expect(group(read.resultXml, 'TRACE')).toMatchObject({
      id: xmlId,
      name: report.nasty,
      status: 'ERROR',
      tags: ['a', 'b'],
      totalCost: '0.25',
      endedAt: null,
      startedAt: '2026-01-02T03:04:05.000Z',
    });
    expect(JSON.parse(group(read.resultXml, 'TRACE').metadata as string)).toEqual({ k: 'v & w' });
    expect(getAttr(tab(read.resultXml, 'SPANS'), 'SIZE')).toBe('1');
    expect(getAttr(tab(read.resultXml, 'EVENTS'), 'SIZE')).toBe('0');

    const asJson = JSON.parse(success(report.readJson, 'readJson').resultXml);
    expect(asJson).toMatchObject({ id: xmlId, name: report.nasty, metadata: { k: 'v & w' }, spans: [{ id: 's1', type: 'AGENT' }] });

    expect(rows(success(report.query, 'query').resultXml).map((r) => r.id)).toEqual([jsonId, xmlId]);
    expect(rows(success(report.queryFiltered, 'queryFiltered').resultXml).map((r) => r.id)).toEqual([xmlId]);
    const limited = rows(success(report.queryLimited, 'queryLimited').resultXml);
    expect(limited).toEqual([expect.objectContaining({ id: jsonId, spanCount: '1', decisionPointCount: '0', eventCount: '0' })]);
    failure(report.queryListSizeZero, 'queryListSizeZero', /listSize/);
    expect(rows(success(report.querySpans, 'querySpans').resultXml)).toEqual([expect.objectContaining({ id: 's1', type: 'LLM_CALL', traceId: jsonId })]);
    expect(group(success(report.readSpan, 'readSpan').resultXml, 'SPAN')).toMatchObject({ traceId: xmlId, id: 's1', type: 'AGENT' });

    expect(group(success(report.runHealth, 'runHealth').resultXml, 'HEALTH')).toMatchObject({ status: 'ok', database: 'ok' });
    expect(group(success(report.runStats, 'runStats').resultXml, 'TRACE_STATS')).toMatchObject({
      traceCount: '2',
      errorCount: '1',
      completedCount: '1',
      runningCount: '0',
      totalCost: '0.75',
    });

    failure(report.badCredentials, 'badCredentials', /^Authentication failed$/);
    failure(report.unknownPublicName, 'unknownPublicName', /INVOICE/);
    if (report.unknownOperationFault) {
      expect(report.unknownOperationFault).toEqual({ fault: { faultcode: expect.stringMatching(/Client$/), faultstring: expect.stringContaining('dropTable') } });
    }
  });
}

test('the WSDL names the address the client used, in any case of ?wsdl', async ({ request, baseURL }) => {
  for (const q of ['wsdl', 'WSDL']) {
    const res = await request.get(`/api/soap?${q}`);
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toBe('text/xml; charset=utf-8');
    expect(await res.text()).toContain(`<wsdlsoap:address location="${baseURL}/api/soap"/>`);
  }
  const proxied = await request.get('/api/soap?wsdl', { headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'erp.example.com' } });
  expect(await proxied.text()).toContain('<wsdlsoap:address location="https://erp.example.com/api/soap"/>');
});

test('hand-written envelopes get SOAP 1.1 faults and typed results', async ({ request }) => {
  const post = (data: string, headers: Record<string, string> = {}) =>
    request.post('/api/soap', { data, headers: { 'content-type': 'text/xml; charset=utf-8', ...headers } });
  const v12 = await post('<e:Envelope xmlns:e="http://www.w3.org/2003/05/soap-envelope"><e:Body><read/></e:Body></e:Envelope>');
  expect(v12.status()).toBe(500);
  expect(await v12.text()).toContain('<faultcode>soapenv:VersionMismatch</faultcode>');
  const broken = await post('<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Body>');
  expect(broken.status()).toBe(500);
  const text = await broken.text();
  expect(text).toContain('<faultcode>soapenv:Client</faultcode>');
  expect(text).not.toMatch(/\n\s+at /);

  const health =
    '<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:w="urn:crossroads:wss"><soapenv:Body>' +
    `<w:run><callContext><password>${E2E_API_KEY}</password></callContext><publicName>HEALTH</publicName><inputXml/></w:run>` +
    '</soapenv:Body></soapenv:Envelope>';
  const res = await post(health, { soapaction: '"anything"' });
  expect(res.status()).toBe(200);
  const body = await res.text();
  expect(body).toContain('<wss:runResponse soapenv:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"><runReturn xsi:type="wss:CSvcResultXml">');
  expect(body).toContain('soapenc:arrayType="wss:CSvcMessage[0]"');
});
