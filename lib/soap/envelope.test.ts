import { describe, expect, it } from 'vitest';
import { checkEnvelope } from './envelope';
import { SoapFault } from './fault';

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
});
