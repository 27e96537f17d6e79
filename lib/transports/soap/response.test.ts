import { describe, expect, it } from 'vitest';
import { resultResponse, writeResponseEnvelope } from './response';
import { parseResult } from '@/test/support/soap';

describe('writeResponseEnvelope', () => {
  it('writes the exact rpc/encoded shape: wss:opResponse with encodingStyle, unqualified typed Return, typed arrays', () => {
    const xml = writeResponseEnvelope('read', {
      status: 0,
      resultXml: '',
      messages: [{ type: '3', message: 'Trace not found' }],
      technicalInfos: [{ type: 'totalDuration', message: '4' }],
    });
    expect(xml).toBe(
      '<?xml version="1.0" encoding="utf-8"?><soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" ' +
        'xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/" xmlns:xsd="http://www.w3.org/2001/XMLSchema" ' +
        'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:wss="urn:crossroads:wss"><soapenv:Body>' +
        '<wss:readResponse soapenv:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/">' +
        '<readReturn xsi:type="wss:CSvcResultXml">' +
        '<messages xsi:type="soapenc:Array" soapenc:arrayType="wss:CSvcMessage[1]"><item xsi:type="wss:CSvcMessage">' +
        '<message xsi:type="xsd:string">Trace not found</message><type xsi:type="xsd:string">3</type></item></messages>' +
        '<resultXml xsi:type="xsd:string"></resultXml><status xsi:type="xsd:int">0</status>' +
        '<technicalInfos xsi:type="soapenc:Array" soapenc:arrayType="wss:CSvcTechnicalInfos[1]"><item xsi:type="wss:CSvcTechnicalInfos">' +
        '<message xsi:type="xsd:string">4</message><type xsi:type="xsd:string">totalDuration</type></item></technicalInfos>' +
        '</readReturn></wss:readResponse></soapenv:Body></soapenv:Envelope>',
    );
  });

  it('types empty arrays as [0] and escapes the XML payload once', () => {
    const res = resultResponse('query', { status: 1, resultXml: '<RESULT a="&amp;"/>', messages: [], technicalInfos: [] });
    expect(res.status).toBe(200);
    expect(res.headers['Content-Type']).toBe('text/xml; charset=utf-8');
    expect(res.body).toContain('soapenc:arrayType="wss:CSvcMessage[0]"');
    expect(res.body).toContain('soapenc:arrayType="wss:CSvcTechnicalInfos[0]"');
    expect(parseResult(res.body)).toEqual({ operation: 'query', status: 1, resultXml: '<RESULT a="&amp;"/>', messages: [], technicalInfos: [] });
  });
});
