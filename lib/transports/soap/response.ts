// The typed rpc/encoded response (SOAP 1.1 section 7 with section 5 encoding): the
// <opResponse> element in the target namespace carrying encodingStyle, an unqualified
// <opReturn xsi:type="wss:CSvcResultXml">, every field with its xsi:type, and the two
// arrays as soapenc:Array with soapenc:arrayType="wss:T[n]" ([0] when empty). node-soap
// writes none of this, so the adapter writes the body itself.
import type { OperationName } from './namespaces';
import { SOAP_ENC_NS, SOAP_ENV_NS, WSS_NS, XSD_NS, XSI_NS } from './namespaces';
import { SOAP_CONTENT_TYPE, type SoapHttpResponse } from './fault';
import type { SoapResult } from './result';
import { escapeText } from './xml';

function str(name: string, value: string | null): string {
  if (value === null) return `<${name} xsi:type="xsd:string" xsi:nil="true"/>`;
  return `<${name} xsi:type="xsd:string">${escapeText(value)}</${name}>`;
}

function array(name: string, itemType: string, items: { message: string; type: string }[]): string {
  const members = items
    .map((i) => `<item xsi:type="wss:${itemType}">${str('message', i.message)}${str('type', i.type)}</item>`)
    .join('');
  return `<${name} xsi:type="soapenc:Array" soapenc:arrayType="wss:${itemType}[${items.length}]">${members}</${name}>`;
}

export function writeResponseEnvelope(operation: OperationName, result: SoapResult): string {
  return (
    `<?xml version="1.0" encoding="utf-8"?>` +
    `<soapenv:Envelope xmlns:soapenv="${SOAP_ENV_NS}" xmlns:soapenc="${SOAP_ENC_NS}" ` +
    `xmlns:xsd="${XSD_NS}" xmlns:xsi="${XSI_NS}" xmlns:wss="${WSS_NS}">` +
    `<soapenv:Body>` +
    `<wss:${operation}Response soapenv:encodingStyle="${SOAP_ENC_NS}">` +
    `<${operation}Return xsi:type="wss:CSvcResultXml">` +
    array('messages', 'CSvcMessage', result.messages) +
    str('resultXml', result.resultXml) +
    `<status xsi:type="xsd:int">${result.status}</status>` +
    array('technicalInfos', 'CSvcTechnicalInfos', result.technicalInfos) +
    `</${operation}Return>` +
    `</wss:${operation}Response>` +
    `</soapenv:Body></soapenv:Envelope>`
  );
}

export function resultResponse(operation: OperationName, result: SoapResult): SoapHttpResponse {
  return {
    status: 200,
    headers: { 'Content-Type': SOAP_CONTENT_TYPE },
    body: writeResponseEnvelope(operation, result),
  };
}
