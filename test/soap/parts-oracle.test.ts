// parts.ts reads the call's parts from the envelope's one tree by node-soap's rules.
// Here node-soap itself (test/soap/node-soap-oracle.ts, as the service ran it until then)
// reads the same envelopes, and both readings must agree: the same operation and the
// same raw parts, or both no dispatch. The envelopes: the golden cases, then thousands
// generated from a small grammar of the shapes clients and odd clients send (SEED and N
// pick other and more of them).
import { describe, expect, it } from 'vitest';
import { checkEnvelope } from '@/lib/transports/soap/envelope';
import { SoapFault } from '@/lib/transports/soap/fault';
import { WSDL_TYPES, readRawParts } from '@/lib/transports/soap/parts';
import { buildWsdl } from '@/lib/transports/soap/wsdl';
import { WSDL } from 'soap';
import { joinSurrogateReferences } from '@/lib/transports/soap/xml';
import { dispatchWithNodeSoap } from './node-soap-oracle';
import { SHAPES, styled } from './golden-cases';

type Reading = { ok: true; operation: string; args: unknown } | { ok: false };

async function byNodeSoap(xml: string): Promise<Reading> {
  try {
    const call = await dispatchWithNodeSoap(xml);
    return { ok: true, operation: call.operation, args: call.args };
  } catch {
    return { ok: false };
  }
}

function byParts(xml: string): Reading | 'checked-out' {
  let envelope;
  try {
    envelope = checkEnvelope(xml);
  } catch (err) {
    if (err instanceof SoapFault) return 'checked-out';
    throw err;
  }
  try {
    return { ok: true, operation: envelope.operation, args: readRawParts(envelope) };
  } catch {
    return { ok: false };
  }
}

async function compare(body: string) {
  const xml = joinSurrogateReferences(body);
  const mine = byParts(xml);
  // Envelopes envelope.ts refuses never reached node-soap.
  if (mine === 'checked-out') return false;
  const theirs = await byNodeSoap(xml);
  // node-soap's objects carry no prototype tricks: compare as JSON, key order included.
  expect(JSON.stringify(mine), xml).toBe(JSON.stringify(theirs));
  return true;
}

// A small deterministic generator (mulberry32).
function random(seed: number) {
  let a = seed;
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NS =
  'xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:wss="urn:crossroads:wss" ' +
  'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema" ' +
  'xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/"';

function generate(rnd: () => number): string {
  const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
  let ids = 0;
  const refs: string[] = [];
  const text = () =>
    pick(['', ' ', 'TRACE', ' a b ', 'x<!--c-->y', ' p <!-- c --> q ', '<![CDATA[ c ]]>', 'a<![CDATA[b]]>c', '&lt;x&gt;', '<?pi d?>z', '<![CDATA[<?xml version="1.0"?><A><b>1</b></A>]]>', '12', ' 3 ', '\n\t', '<!-- a -- b -->', '<!-- c --->', '&#xD800;', '&#55357;x', '<![CDATA[<?xml version="1.0"?><A>]]>', '<![CDATA[<?xml version="1.0"?><A><!-- -- --></A>]]>']);
  const attrs = () =>
    pick([
      '',
      '',
      ' xsi:type="xsd:string"',
      ' xsi:nil="true"',
      ' xsi:nil="1"',
      ' xsi:nil="false"',
      ' xsi:nil="TRUE"',
      ' xmlns:i="http://www.w3.org/2001/XMLSchema-instance" i:nil="true"',
      ' soapenc:arrayType="wss:CSvcParamKeyValue[1]"',
      ' id="dup"',
      ' foo="bar"',
      ' xsi:type="wss:CSvcCallContext"',
      ' xsi:type="wss:ArrayOfCSvcParamKeyValue"',
      ' xsi:type="wss:CSvcParamKeyValue"',
      ' xsi:type="wss:CSvcResultXml"',
      ' xsi:type="wss:ArrayOfCSvcMessage"',
      ' xmlns:q="urn:crossroads:wss" xsi:type="q:CSvcParamKeyValue"',
      ' xmlns="urn:crossroads:wss" xsi:type="ArrayOfCSvcParamKeyValue"',
      ' xmlns:j="http://www.w3.org/2001/XMLSchema-instance" j:type="wss:CSvcResultXml"',
    ]);
  const element = (name: string, depth: number): string => {
    const kind = rnd();
    if (kind < 0.12) {
      const id = `r${ids++}`;
      refs.push(`<multiRef id="${id}" soapenc:root="0"${attrs()}>${content(depth + 1)}</multiRef>`);
      return `<${name} href="#${id}"${pick(['', ' xsi:type="xsd:string"'])}/>`;
    }
    if (kind < 0.2) return `<${name}${attrs()}/>`;
    return `<${name}${attrs()}>${content(depth + 1)}</${name}>`;
  };
  const content = (depth: number): string => {
    if (depth > 3 || rnd() < 0.45) return text();
    const n = Math.floor(rnd() * 4);
    let out = rnd() < 0.2 ? text() : '';
    for (let i = 0; i < n; i++) {
      out += element(pick(['item', 'key', 'value', 'password', 'codeUser', 'requestConfig', 'wss:item', 'a', 'status', 'messages', 'resultXml', 'toString']), depth);
      if (rnd() < 0.15) out += text();
    }
    return out;
  };
  const op = pick(['getDescription', 'read', 'query', 'save', 'run']);
  const parts = ['callContext', 'publicName', 'objectKeys', 'listSize', 'objectXml', 'inputXml', 'callContext', 'extra'];
  let inner = rnd() < 0.1 ? text() : '';
  const count = 1 + Math.floor(rnd() * 5);
  for (let i = 0; i < count; i++) inner += element(pick(parts), 0);
  const opAttrs = pick(['', ' soapenv:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"', ' id="dup"']);
  const call = `<wss:${op}${opAttrs}>${inner}</wss:${op}>`;
  const before = pick(['', '', '', '<multiRef id="m0" soapenc:root="0">1</multiRef>', ' t ']);
  const after = pick(['', '', '', '<wss:other>1</wss:other>', `<wss:${op}/>`, ' t ', '<Fault/>']);
  const bodyAttrs = pick(['', '', ' soapenv:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"']);
  const header = pick(['', '', '<soapenv:Header/>', '<soapenv:Header><x:Body xmlns:x="urn:x"><y/></x:Body></soapenv:Header>']);
  return `<soapenv:Envelope ${NS}>${header}<soapenv:Body${bodyAttrs}>${before}${call}${refs.join('')}${after}</soapenv:Body></soapenv:Envelope>`;
}

describe('parts.ts reads what node-soap read', () => {
  it('with the WSDL types as node-soap describes them', async () => {
    type Described = { findSchemaObject(ns: string, name: string): { description(defs: unknown): unknown } | null; definitions: unknown };
    const wsdl = await new Promise<Described>((resolve, reject) => {
      const Ctor = WSDL as unknown as new (xml: string, uri: string, options: object) => Described & { onReady(cb: (err?: Error) => void): void };
      const w = new Ctor(buildWsdl('http://localhost/api/soap', { localSoapenc: false }), 'http://localhost/api/soap', {});
      w.onReady((err) => (err ? reject(err) : resolve(w)));
    });
    for (const [name, schema] of Object.entries(WSDL_TYPES)) {
      expect(JSON.parse(JSON.stringify(wsdl.findSchemaObject('urn:crossroads:wss', name)?.description(wsdl.definitions))), name).toEqual(schema);
    }
  });

  it('for every golden envelope', async () => {
    let compared = 0;
    for (const [, body] of [...styled(), ...SHAPES]) if (await compare(body)) compared++;
    expect(compared).toBeGreaterThan(250);
  }, 120_000);

  it('for generated envelopes', async () => {
    const rnd = random(Number(process.env.SEED ?? 20261129));
    let compared = 0;
    for (let i = 0; i < Number(process.env.N ?? 4000); i++) if (await compare(generate(rnd))) compared++;
    expect(compared).toBeGreaterThan(3000);
  }, 120_000);
});
