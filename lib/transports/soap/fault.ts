// SOAP 1.1 faults (section 4.4): a qualified faultcode, a human faultstring, never a
// stack trace, always HTTP 500 and text/xml.
import { escapeText } from './xml';
import { SOAP12_ENV_NS, SOAP_ENV_NS } from './namespaces';

export type FaultCode = 'Client' | 'Server' | 'VersionMismatch' | 'MustUnderstand';

export class SoapFault extends Error {
  readonly faultCode: FaultCode;

  constructor(faultCode: FaultCode, message: string) {
    super(message);
    this.name = 'SoapFault';
    this.faultCode = faultCode;
  }
}

export const SOAP_CONTENT_TYPE = 'text/xml; charset=utf-8';

export interface SoapHttpResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

// A SOAP 1.2 sender learns which envelope version we speak (SOAP 1.2 part 1, 5.4.7).
const UPGRADE_HEADER =
  `<soapenv:Header><upg:Upgrade xmlns:upg="${SOAP12_ENV_NS}">` +
  `<upg:SupportedEnvelope qname="ns1:Envelope" xmlns:ns1="${SOAP_ENV_NS}"/>` +
  `</upg:Upgrade></soapenv:Header>`;

export function writeFault(fault: SoapFault): string {
  return (
    `<?xml version="1.0" encoding="utf-8"?>` +
    `<soapenv:Envelope xmlns:soapenv="${SOAP_ENV_NS}">` +
    (fault.faultCode === 'VersionMismatch' ? UPGRADE_HEADER : '') +
    `<soapenv:Body><soapenv:Fault>` +
    `<faultcode>soapenv:${fault.faultCode}</faultcode>` +
    `<faultstring>${escapeText(fault.message)}</faultstring>` +
    `</soapenv:Fault></soapenv:Body></soapenv:Envelope>`
  );
}

export function faultResponse(fault: SoapFault): SoapHttpResponse {
  return { status: 500, headers: { 'Content-Type': SOAP_CONTENT_TYPE }, body: writeFault(fault) };
}

/** What an unexpected failure becomes: the detail goes to the log, never to the client. */
export const INTERNAL_FAULT = new SoapFault('Server', 'Internal server error');
