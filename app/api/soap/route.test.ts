// The route as Next calls it: GET ?wsdl, POST envelopes, SOAPAction variants, body limit,
// and golden responses (timing and creation dates normalised) in the styles clients send.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { makeTrace } from '@/test/support/fixtures';
import { axisEnvelope, dotnetEnvelope, keys, parseFault, parseResult, phpEnvelope, soapuiEnvelope, str } from '@/test/support/soap';
import { GET, POST } from './route';

const KEY = 'route-key';
const saved = { url: process.env.DATABASE_URL, keys: process.env.API_KEYS, max: process.env.MAX_BODY_BYTES };

beforeAll(() => {
  process.env.DATABASE_URL = 'memory://';
  process.env.API_KEYS = KEY;
  vi.spyOn(console, 'info').mockImplementation(() => undefined);
});

afterAll(async () => {
  const { getDatabase } = await import('@/lib/db');
  await (await getDatabase()).close();
  process.env.DATABASE_URL = saved.url;
  process.env.API_KEYS = saved.keys;
  process.env.MAX_BODY_BYTES = saved.max;
  vi.restoreAllMocks();
});

const post = (body: string, headers: Record<string, string> = {}) =>
  POST(new Request('http://127.0.0.1:3000/api/soap', { method: 'POST', body, headers: { 'content-type': 'text/xml; charset=utf-8', ...headers } }));

const normalise = (xml: string) =>
  xml
    .replace(/(<message xsi:type="xsd:string">)\d+(<\/message><type xsi:type="xsd:string">(totalDuration|dbDuration)<)/g, '$1N$2')
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z(?=&lt;\/FLD&gt;)/g, (d) => (d.startsWith('2026-01-02') ? d : 'CREATED'));

describe('GET /api/soap', () => {
  it.each(['wsdl', 'WSDL', 'Wsdl', 'wsdl=1'])('serves the WSDL for ?%s with the address the client used', async (q) => {
    const res = await GET(new Request(`http://0.0.0.0:3000/api/soap?${q}`, { headers: { host: 'soap.example:8080' } }));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/xml; charset=utf-8');
    const wsdl = await res.text();
    expect(wsdl).toContain('<wsdlsoap:address location="http://soap.example:8080/api/soap"/>');
    expect(wsdl).toContain('schemaLocation="http://soap.example:8080/api/soap?xsd=soapenc"');
  });

  it('uses X-Forwarded-Proto and X-Forwarded-Host behind a proxy', async () => {
    const res = await GET(
      new Request('http://10.0.0.5:3000/api/soap?wsdl', { headers: { host: '10.0.0.5:3000', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'erp.example.com' } }),
    );
    expect(await res.text()).toContain('location="https://erp.example.com/api/soap"');
  });

  it('serves the soapenc schema and a hint otherwise', async () => {
    const xsd = await GET(new Request('http://h/api/soap?xsd=soapenc'));
    expect(await xsd.text()).toContain('targetNamespace="http://schemas.xmlsoap.org/soap/encoding/"');
    const plain = await GET(new Request('http://h/api/soap'));
    expect(await plain.text()).toContain('?wsdl');
  });
});

describe('POST /api/soap', () => {
  const ctx = { codeUser: 'golden', password: KEY };
  const id = 'golden-trace-1';

  it('stores through one style and reads through every style, whatever the SOAPAction header', async () => {
    const saveRes = await post(phpEnvelope('save', ctx, [str('publicName', 'TRACE'), str('objectXml', JSON.stringify(makeTrace({ id })))]), {
      soapaction: '"urn:crossroads:wss#save"',
    });
    expect(parseResult(await saveRes.text()).status).toBe(1);
    const actions: (Record<string, string>)[] = [{}, { soapaction: '' }, { soapaction: '""' }, { soapaction: 'http://tempuri.org/whatever' }];
    const styles = [phpEnvelope, axisEnvelope, dotnetEnvelope, soapuiEnvelope];
    for (const [i, style] of styles.entries()) {
      const res = await post(style('read', ctx, [str('publicName', 'TRACE'), keys('objectKeys', [['id', id]])]), actions[i]);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/xml; charset=utf-8');
      expect(parseResult(await res.text()).status).toBe(1);
    }
  });

  it('matches the golden read response', async () => {
    const res = await post(axisEnvelope('read', ctx, [str('publicName', 'TRACE'), keys('objectKeys', [['id', id]])]));
    await expect(normalise(await res.text())).toMatchFileSnapshot('__golden__/read-TRACE.xml');
  });

  it('matches the golden getDescription, failure and JSON responses', async () => {
    const d = await post(phpEnvelope('getDescription', ctx, [str('publicName', 'TRACE')]));
    await expect(normalise(await d.text())).toMatchFileSnapshot('__golden__/getDescription-TRACE.xml');
    const f = await post(soapuiEnvelope('read', { password: 'nope' }, [str('publicName', 'TRACE'), keys('objectKeys', [['id', id]])]));
    await expect(normalise(await f.text())).toMatchFileSnapshot('__golden__/read-authentication-failed.xml');
    const q = await post(
      dotnetEnvelope('query', { ...ctx, requestConfig: 'adxwss.optreturn=JSON&adxwss.trace.on=on' }, [
        str('publicName', 'SPAN'),
        keys('objectKeys', [['traceId', id]]),
        { name: 'listSize', int: 1 },
      ]),
    );
    await expect(normalise(await q.text())).toMatchFileSnapshot('__golden__/query-SPAN-json.xml');
  });

  it.each([
    ['malformed XML', '<soapenv:Envelope', 'Client'],
    ['a SOAP 1.2 envelope', '<e:Envelope xmlns:e="http://www.w3.org/2003/05/soap-envelope"><e:Body><x/></e:Body></e:Envelope>', 'VersionMismatch'],
    ['an unknown operation', '<e:Envelope xmlns:e="http://schemas.xmlsoap.org/soap/envelope/"><e:Body><w:drop xmlns:w="urn:crossroads:wss"/></e:Body></e:Envelope>', 'Client'],
    ['listSize not an int', phpEnvelope('query', ctx, [str('publicName', 'TRACE'), keys('objectKeys', []), str('listSize', 'ten')]), 'Client'],
  ])('answers %s with a %s fault, HTTP 500, no stack trace', async (_, body, code) => {
    const res = await post(body);
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toBe('text/xml; charset=utf-8');
    const text = await res.text();
    expect(parseFault(text).faultcode).toEqual({ ns: 'http://schemas.xmlsoap.org/soap/envelope/', local: code, raw: `soapenv:${code}` });
    expect(text).not.toMatch(/\n\s+at |node_modules|\.ts:\d+/);
  });

  it.each([
    ['50,000 attributes on the operation', (a: string) => `<w:read xmlns:w="urn:crossroads:wss"${a}/>`, /^Envelope over a limit: Element <w:read> has more than 64 attributes \(the limit per element\) at offset \d+$/],
    ['4,000 nested namespace declarations', () => `<w:read xmlns:w="urn:crossroads:wss">${'<a xmlns:p="urn:p">'.repeat(4000)}${'</a>'.repeat(4000)}</w:read>`, /^Envelope over a limit: Elements nest deeper than 64 levels \(the limit\) at offset \d+$/],
  ])('answers an anonymous envelope of %s with a Client fault naming the limit', async (_, call, message) => {
    const attrs = Array.from({ length: 50_000 }, (_, i) => ` a${i}="v"`).join('');
    const res = await post(`<e:Envelope xmlns:e="http://schemas.xmlsoap.org/soap/envelope/"><e:Body>${call(attrs)}</e:Body></e:Envelope>`);
    expect(res.status).toBe(500);
    expect(parseFault(await res.text())).toMatchObject({ faultcode: { local: 'Client' }, faultstring: expect.stringMatching(message) });
  });

  it('refuses a body over MAX_BODY_BYTES with a Client fault', async () => {
    process.env.MAX_BODY_BYTES = '1000';
    try {
      const res = await post(phpEnvelope('save', ctx, [str('publicName', 'TRACE'), str('objectXml', 'x'.repeat(2000))]));
      expect(res.status).toBe(500);
      expect(parseFault(await res.text())).toMatchObject({ faultcode: { local: 'Client' }, faultstring: 'Request body too large' });
    } finally {
      process.env.MAX_BODY_BYTES = saved.max;
    }
  });
});
