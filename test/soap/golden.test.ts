// Golden responses of the SOAP service: every operation, valid and invalid, in the
// styles real clients send, plus envelope faults, limits and the odd shapes node-soap
// used to read (text runs, nil spellings, multiRefs, CDATA, lenient ints). Recorded from
// the service before its envelope was parsed only once (test/soap/__golden__), so that
// any change in a byte of an answer, a fault or a status shows here.
// Re-record only on purpose: npx vitest run test/soap/golden.test.ts -u
import { contextAs } from '@/test/support/context';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '@/lib/db/open';
import { openDatabase } from '@/lib/db/open';
import { useDatabase } from '@/lib/db';
import { resolvePrincipal } from '@/lib/features/access/principal';
import { handleSoapPost, soapencXsdResponse, wsdlResponse, type ServiceDeps } from '@/lib/transports/soap/service';
import { KEY, SHAPES, styled } from './golden-cases';

describe('SOAP golden responses', () => {
  let database: Database;
  let deps: ServiceDeps;
  const saved = { keys: process.env.API_KEYS, url: process.env.DATABASE_URL };

  beforeAll(async () => {
    process.env.API_KEYS = KEY;
    process.env.DATABASE_URL = 'memory://';
    database = await openDatabase('memory://', { migrateEmbedded: true });
    useDatabase(database);
    deps = {
      context: async (headers, envelopeKey) => contextAs(database, await resolvePrincipal(headers, { kind: 'soap', envelopeKey })),
      limits: () => ({ maxBodyBytes: 5_000_000, maxBatchTraces: 10, maxChildrenPerTrace: 500, maxInflightBodyBytes: 24_000_000, admissionWaitMs: 1_000 }),
    };
    vi.spyOn(console, 'info').mockImplementation(() => undefined);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });

  afterAll(async () => {
    process.env.API_KEYS = saved.keys;
    process.env.DATABASE_URL = saved.url;
    await database?.close();
    vi.restoreAllMocks();
  });

  // Durations, the clock and generated ids are the only things allowed to move.
  const normalise = (body: string) =>
    body
      .replace(/(<message xsi:type="xsd:string">)\d+(<\/message><type xsi:type="xsd:string">(totalDuration|dbDuration)<)/g, '$1N$2')
      .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?Z/g, (d) => (d.startsWith('2026-01-0') ? d : 'NOW'))
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'UUID')
      .replace(/"version":\s*"[^"]*"|(NAME="version"&gt;)[^&]*/g, (m, p: string | undefined) => (p ? `${p}V` : '"version":"V"'));

  it('answers every case as recorded', async () => {
    const out: string[] = [];
    for (const [name, body] of [...styled(), ...SHAPES]) {
      const headers = new Headers(name === 'Authorization Basic' ? { authorization: `Basic ${Buffer.from(`x:${KEY}`).toString('base64')}` } : {});
      const res = await handleSoapPost(deps, body, headers);
      out.push(`### ${name}\n${res.status} ${JSON.stringify(res.headers)}\n${normalise(res.body)}\n`);
    }
    const wsdl = wsdlResponse('http://10.0.0.1:3000/api/soap?wsdl', new Headers({ host: 'soap.example:8080' }));
    out.push(`### WSDL\n${wsdl.status} ${JSON.stringify(wsdl.headers)}\n${wsdl.body}\n`);
    const xsd = soapencXsdResponse();
    out.push(`### soapenc XSD\n${xsd.status} ${JSON.stringify(xsd.headers)}\n${xsd.body}\n`);
    await expect(out.join('\n')).toMatchFileSnapshot('./__golden__/responses.txt');
  }, 120_000);
});
