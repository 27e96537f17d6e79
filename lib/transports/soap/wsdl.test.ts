import { listen } from 'soap';
import { describe, expect, it } from 'vitest';
import { OPERATIONS, SOAP_ENC_NS, WSDL_NS, WSDL_SOAP_NS, WSS_NS, XSD_NS } from './namespaces';
import { SOAPENC_XSD } from './soapenc-xsd';
import { buildWsdl } from './wsdl';
import { elementChildren, getAttr, parseXml, resolveQName, type XmlElement } from './xml';

const wsdl = parseXml(buildWsdl('https://example.test:8443/api/soap'));
const children = (el: XmlElement, local: string, ns = WSDL_NS) => elementChildren(el).filter((c) => c.local === local && c.ns === ns);

describe('buildWsdl', () => {
  it('declares the target namespace, the port type, service and an rpc binding with empty soapAction', () => {
    expect(getAttr(wsdl, 'targetNamespace')).toBe(WSS_NS);
    expect(getAttr(children(wsdl, 'portType')[0], 'name')).toBe('CSvcWebServiceXmlCC');
    const service = children(wsdl, 'service')[0];
    expect(getAttr(service, 'name')).toBe('CSvcWebServiceXmlCCService');
    const address = elementChildren(children(service, 'port')[0])[0];
    expect(address).toMatchObject({ local: 'address', ns: WSDL_SOAP_NS });
    expect(getAttr(address, 'location')).toBe('https://example.test:8443/api/soap');

    const binding = children(wsdl, 'binding')[0];
    const soapBinding = elementChildren(binding).find((c) => c.ns === WSDL_SOAP_NS)!;
    expect(getAttr(soapBinding, 'style')).toBe('rpc');
    const ops = children(binding, 'operation');
    expect(ops.map((o) => getAttr(o, 'name'))).toEqual(Object.keys(OPERATIONS));
    for (const op of ops) {
      expect(getAttr(elementChildren(op).find((c) => c.local === 'operation')!, 'soapAction')).toBe('');
      for (const io of [...children(op, 'input'), ...children(op, 'output')]) {
        const body = elementChildren(io)[0];
        expect([getAttr(body, 'use'), getAttr(body, 'encodingStyle'), getAttr(body, 'namespace')]).toEqual(['encoded', SOAP_ENC_NS, WSS_NS]);
      }
    }
  });

  it('has the input parts of the contract in order, and one CSvcResultXml output part', () => {
    const messages = Object.fromEntries(children(wsdl, 'message').map((m) => [getAttr(m, 'name'), m]));
    for (const [op, parts] of Object.entries(OPERATIONS)) {
      const input = children(messages[`${op}Request`], 'part');
      expect(input.map((p) => getAttr(p, 'name'))).toEqual(parts.map((p) => p.name));
      const output = children(messages[`${op}Response`], 'part');
      expect(output.map((p) => [getAttr(p, 'name'), resolveQName(p, getAttr(p, 'type')!)])).toEqual([
        [`${op}Return`, { ns: WSS_NS, local: 'CSvcResultXml' }],
      ]);
    }
    const listSize = children(messages.queryRequest, 'part')[3];
    expect(resolveQName(listSize, getAttr(listSize, 'type')!)).toEqual({ ns: XSD_NS, local: 'int' });
  });

  it('types the arrays as soapenc:Array restrictions with wsdl:arrayType', () => {
    const schema = elementChildren(children(wsdl, 'types')[0])[0];
    const types = Object.fromEntries(elementChildren(schema).map((t) => [getAttr(t, 'name'), t]));
    for (const item of ['CSvcMessage', 'CSvcTechnicalInfos', 'CSvcParamKeyValue']) {
      const restriction = elementChildren(elementChildren(types[`ArrayOf${item}`])[0])[0];
      expect(resolveQName(restriction, getAttr(restriction, 'base')!)).toEqual({ ns: SOAP_ENC_NS, local: 'Array' });
      const attr = elementChildren(restriction).find((c) => c.local === 'attribute')!;
      expect(resolveQName(attr, getAttr(attr, 'ref')!)).toEqual({ ns: SOAP_ENC_NS, local: 'arrayType' });
      expect(getAttr(attr, 'arrayType', WSDL_NS)).toBe(`wss:${item}[]`);
    }
    const fields = elementChildren(elementChildren(types.CSvcResultXml)[0]).map((e) => getAttr(e, 'name'));
    expect(fields).toEqual(['messages', 'resultXml', 'status', 'technicalInfos']);
  });

  it('imports the SOAP encoding schema from this server, and that schema never refers to itself', () => {
    const schema = elementChildren(children(wsdl, 'types')[0])[0];
    const imp = elementChildren(schema).find((c) => c.local === 'import')!;
    expect(getAttr(imp, 'schemaLocation')).toBe('https://example.test:8443/api/soap?xsd=soapenc');
    expect(getAttr(parseXml(buildWsdl('http://x/api/soap', { localSoapenc: false })), 'targetNamespace')).toBe(WSS_NS);
    const xsd = parseXml(SOAPENC_XSD);
    expect(getAttr(xsd, 'targetNamespace')).toBe(SOAP_ENC_NS);
    expect(SOAPENC_XSD).not.toMatch(/(ref|type|base)="tns:/);
    expect(elementChildren(xsd).map((e) => getAttr(e, 'name'))).toEqual(expect.arrayContaining(['Array', 'arrayType']));
  });

  it('escapes the address', () => {
    expect(buildWsdl('http://h/api/soap?a=1&b="2"')).toContain('location="http://h/api/soap?a=1&amp;b=&quot;2&quot;"');
  });

  it('loads in node-soap without error', async () => {
    await new Promise<void>((resolve, reject) => {
      listen(null, {
        path: '/api/soap',
        services: {},
        xml: buildWsdl('http://localhost/api/soap', { localSoapenc: false }),
        callback: (err: unknown) => (err ? reject(err) : resolve()),
      });
    });
  });
});
