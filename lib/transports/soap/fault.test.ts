import { describe, expect, it } from 'vitest';
import { INTERNAL_FAULT, SoapFault, faultResponse, writeFault } from './fault';
import { elementChildren, parseXml, resolveQName, textContent } from './xml';

describe('faults', () => {
  it('are SOAP 1.1 faults with a qualified faultcode, an escaped faultstring, HTTP 500 and text/xml', () => {
    const res = faultResponse(new SoapFault('Client', 'Bad <input> & "more"'));
    expect(res.status).toBe(500);
    expect(res.headers['Content-Type']).toBe('text/xml; charset=utf-8');
    const root = parseXml(res.body);
    const fault = elementChildren(elementChildren(root)[0])[0];
    expect(fault).toMatchObject({ local: 'Fault', ns: 'http://schemas.xmlsoap.org/soap/envelope/' });
    const [code, text] = elementChildren(fault);
    expect([code.local, code.ns, text.local, text.ns]).toEqual(['faultcode', '', 'faultstring', '']);
    expect(resolveQName(code, textContent(code))).toEqual({ ns: 'http://schemas.xmlsoap.org/soap/envelope/', local: 'Client' });
    expect(textContent(text)).toBe('Bad <input> & "more"');
  });

  it('tells a SOAP 1.2 sender which envelope is supported on VersionMismatch', () => {
    const xml = writeFault(new SoapFault('VersionMismatch', 'x'));
    expect(xml).toContain('<soapenv:Header><upg:Upgrade');
    expect(xml).toContain('<faultcode>soapenv:VersionMismatch</faultcode>');
  });

  it('has a generic internal fault without detail', () => {
    expect(writeFault(INTERNAL_FAULT)).toContain('<faultcode>soapenv:Server</faultcode><faultstring>Internal server error</faultstring>');
  });
});
