import { describe, expect, it } from 'vitest';
import { STYLES, keys, str, type Ctx } from '@/test/support/soap';
import { normalizeArgs } from './args';
import { ENVELOPE_LIMITS, checkEnvelope, readCaller } from './envelope';
import { SoapFault } from './fault';
import { dispatchWithNodeSoap } from '@/test/soap/node-soap-oracle';
import { joinSurrogateReferences } from './xml';

const ENV = 'http://schemas.xmlsoap.org/soap/envelope/';
const env = (body: string, header = '') => `<e:Envelope xmlns:e="${ENV}" xmlns:w="urn:crossroads:wss">${header}<e:Body>${body}</e:Body></e:Envelope>`;

function faultOf(xml: string): SoapFault {
  try {
    checkEnvelope(xml);
  } catch (err) {
    if (err instanceof SoapFault) return err;
    throw err;
  }
  throw new Error('no fault');
}

describe('checkEnvelope', () => {
  it('finds the operation, skipping Axis multiRef entries that come first', () => {
    expect(checkEnvelope(env('<w:read/>')).operation).toBe('read');
    const multiRefFirst = env(
      '<multiRef id="id0" soapenc:root="0" xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/"/><w:query/>',
    );
    expect(checkEnvelope(multiRefFirst).operation).toBe('query');
    expect(checkEnvelope(env('<save/>')).operation).toBe('save');
  });

  it.each([
    ['not well-formed XML', '<e:Envelope', 'Client', 'Malformed XML'],
    ['an empty body', '', 'Client', 'Malformed XML'],
    ['a root that is not Envelope', `<x:Body xmlns:x="${ENV}"/>`, 'Client', 'root element must be Envelope'],
    ['no Body', `<e:Envelope xmlns:e="${ENV}"><e:Header/></e:Envelope>`, 'Client', 'no Body'],
    ['an empty Body', env(''), 'Client', 'holds no operation'],
    ['an unknown operation', env('<w:delete/>'), 'Client', 'Unknown operation "delete"'],
    ['a SOAP 1.2 envelope', `<e:Envelope xmlns:e="http://www.w3.org/2003/05/soap-envelope"><e:Body/></e:Envelope>`, 'VersionMismatch', 'SOAP 1.2'],
    ['an Envelope in another namespace', `<Envelope xmlns="urn:other"><Body/></Envelope>`, 'VersionMismatch', 'not SOAP 1.1'],
    ['a mustUnderstand header', env('<w:read/>', `<e:Header><s:Sec xmlns:s="urn:s" e:mustUnderstand="1"/></e:Header>`), 'MustUnderstand', 's:Sec'],
  ])('faults on %s', (_, xml, code, message) => {
    const fault = faultOf(xml);
    expect(fault.faultCode).toBe(code);
    expect(fault.message).toContain(message);
  });

  it('ignores header entries meant for another actor or not marked mustUnderstand', () => {
    const header = `<e:Header><s:A xmlns:s="urn:s" e:mustUnderstand="0"/><s:B xmlns:s="urn:s" e:mustUnderstand="1" e:actor="urn:someone-else"/></e:Header>`;
    expect(checkEnvelope(env('<w:run/>', header)).operation).toBe('run');
  });

  describe('limits', () => {
    const attrs = (n: number, name: (i: number) => string) => Array.from({ length: n }, (_, i) => ` ${name(i)}="urn:v"`).join('');
    const nested = (n: number) => '<a xmlns:p="urn:p">'.repeat(n) + '</a>'.repeat(n);
    const { maxDepth, maxAttributesPerElement, maxNamespacesPerElement, maxElements, maxAttributes, maxNamespaces } = ENVELOPE_LIMITS;

    it('reads an envelope at every limit', () => {
      // Envelope and Body: 2 namespaces, 2 elements; <w:read> is the third level and element.
      const declaring = maxNamespaces - 2 - maxNamespacesPerElement - (maxDepth - 3);
      const plain = maxElements - maxDepth - declaring;
      let attributesLeft = maxAttributes - maxNamespaces - (maxAttributesPerElement - maxNamespacesPerElement);
      const plainElements = Array.from({ length: plain }, (_, i) => {
        const n = Math.min(attributesLeft, maxAttributesPerElement);
        attributesLeft -= n;
        return `<b${i}${attrs(n, (k) => `a${k}`)}/>`;
      });
      expect(attributesLeft).toBe(0);
      const atLimits =
        `<w:read${attrs(maxAttributesPerElement - maxNamespacesPerElement, (i) => `a${i}`)}${attrs(maxNamespacesPerElement, (i) => `xmlns:p${i}`)}>` +
        nested(maxDepth - 3) +
        '<c xmlns:q="urn:q"/>'.repeat(declaring) +
        plainElements.join('') +
        '</w:read>';
      expect(checkEnvelope(env(atLimits)).operation).toBe('read');
    });

    it.each([
      ['50,000 attributes on one element', `<w:read${attrs(50_000, (i) => `a${i}`)}/>`, `Element <w:read> has more than ${maxAttributesPerElement} attributes (the limit per element)`],
      ['more namespace declarations on one element than the limit', `<w:read${attrs(maxNamespacesPerElement + 1, (i) => `xmlns:p${i}`)}/>`, `Element <w:read> declares more than ${maxNamespacesPerElement} namespaces (the limit per element)`],
      ['4,000 nested namespace declarations', `<w:read>${nested(4000)}</w:read>`, `Elements nest deeper than ${maxDepth} levels (the limit)`],
      ['more elements than the limit', `<w:read>${'<b/>'.repeat(maxElements)}</w:read>`, `The document has more than ${maxElements} elements (the limit)`],
      ['more namespace declarations than the limit', `<w:read>${'<c xmlns:q="urn:q"/>'.repeat(maxNamespaces)}</w:read>`, `The document declares more than ${maxNamespaces} namespaces (the limit)`],
      ['more attributes than the limit', `<w:read>${`<b${attrs(10, (i) => `a${i}`)}/>`.repeat(maxAttributes / 10 + 1)}</w:read>`, `The document has more than ${maxAttributes} attributes (the limit)`],
    ])('answers %s with a Client fault naming the limit', (_, body, message) => {
      const fault = faultOf(env(body));
      expect(fault.faultCode).toBe('Client');
      expect(fault.message).toMatch(new RegExp(`^Envelope over a limit: ${message.replace(/[()]/g, '\\$&')} at offset \\d+$`));
    });
  });
});

describe('readCaller', () => {
  const parts = [str('publicName', 'TRACE'), keys('objectKeys', [['id', 't-1']])];

  // The key decides whether node-soap runs at all, so it must be the key node-soap reads.
  it.each(Object.entries(STYLES))('reads the key node-soap reads from a %s envelope', async (_, style) => {
    const contexts: Ctx[] = [
      { password: 'cr_key0123', codeUser: 'erp', requestConfig: 'adxwss.trace.on=on' },
      { password: '' },
      { password: null },
      { password: '  cr_padded  ' },
      { password: 'a&b<c>"\'😀' },
    ];
    for (const ctx of contexts) {
      const xml = joinSurrogateReferences(style('read', ctx, parts));
      const caller = readCaller(checkEnvelope(xml));
      const { callContext, publicName } = normalizeArgs('read', (await dispatchWithNodeSoap(xml)).args);
      expect(caller, JSON.stringify(ctx)).toEqual({ key: callContext.password, codeUser: callContext.codeUser, requestConfig: callContext.requestConfig, publicName });
    }
  });

  // Each of these is a fault or a failed authentication on node-soap's reading too.
  it.each([
    ['two keys', '<callContext><password>k</password><password>k</password></callContext>', ''],
    ['a key that is a structure', '<callContext><password><v>k</v></password></callContext>', ''],
    ['a nil key with text', '<callContext><password xsi:nil="true">k</password></callContext>', ''],
    ['two callContexts', '<callContext><password>k</password></callContext><callContext/>', ''],
    ['a reference to nothing', '<callContext href="#c"><password>k</password></callContext>', 'k'],
  ])('reads no key, or the one node-soap would, from %s', (_, context, key) => {
    const xml = env(`<w:read xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">${context}<publicName>TRACE</publicName></w:read>`);
    expect(readCaller(checkEnvelope(xml))).toMatchObject({ key, publicName: 'TRACE' });
  });

  it('takes the members of a referenced callContext over its own, from the last element with that id to close', () => {
    const ref = (targets: string) => readCaller(checkEnvelope(env(`<w:read><callContext href="#c"><codeUser>own</codeUser></callContext></w:read>${targets}`)));
    expect(ref('<x id="c"><password>k</password></x>')).toMatchObject({ key: 'k', codeUser: 'own' });
    expect(ref('<x id="c"><password>k1</password></x><y id="c"><password>k2</password></y>')).toMatchObject({ key: 'k2' });
    expect(ref('<x id="c"><password>outer</password><y id="c"><codeUser>inner</codeUser></y></x>')).toMatchObject({ key: 'outer', codeUser: 'own' });
  });

  it('answers a call without callContext with the fault node-soap and args.ts give it', () => {
    let fault: unknown;
    try {
      readCaller(checkEnvelope(env('<w:getDescription><publicName>TRACE</publicName></w:getDescription>')));
    } catch (err) {
      fault = err;
    }
    expect(fault).toBeInstanceOf(SoapFault);
    expect(fault).toMatchObject({ faultCode: 'Client', message: 'Missing part callContext in getDescription' });
  });
});
