// SOAP 1.1 rpc/encoded envelopes for the read and query operations, as a typical legacy
// toolkit (Axis 1.x, PHP SoapClient) writes them: typed parts, items named `item`.
const ENC = 'http://schemas.xmlsoap.org/soap/encoding/';

function esc(s: string): string {
  return s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function callContext(password: string): string {
  return (
    '<callContext xsi:type="wss:CSvcCallContext">' +
    '<codeLang xsi:type="xsd:string">ENG</codeLang>' +
    '<codeUser xsi:type="xsd:string">bench</codeUser>' +
    `<password xsi:type="xsd:string">${esc(password)}</password>` +
    '<poolAlias xsi:type="xsd:string">BENCH</poolAlias>' +
    '<poolId xsi:type="xsd:string"></poolId>' +
    '<requestConfig xsi:type="xsd:string"></requestConfig>' +
    '</callContext>'
  );
}

function keys(pairs: [string, string][]): string {
  return (
    `<objectKeys xsi:type="soapenc:Array" soapenc:arrayType="wss:CSvcParamKeyValue[${pairs.length}]">` +
    pairs
      .map(
        ([k, v]) =>
          `<item xsi:type="wss:CSvcParamKeyValue"><key xsi:type="xsd:string">${esc(k)}</key>` +
          `<value xsi:type="xsd:string">${esc(v)}</value></item>`,
      )
      .join('') +
    '</objectKeys>'
  );
}

function envelope(op: string, inner: string): string {
  return (
    '<?xml version="1.0" encoding="UTF-8"?>' +
    '<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" ' +
    'xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" ' +
    `xmlns:soapenc="${ENC}" xmlns:wss="urn:crossroads:wss">` +
    `<soapenv:Body><wss:${op} soapenv:encodingStyle="${ENC}">${inner}</wss:${op}></soapenv:Body></soapenv:Envelope>`
  );
}

export function readEnvelope(password: string, publicName: string, pairs: [string, string][]): string {
  return envelope(
    'read',
    callContext(password) + `<publicName xsi:type="xsd:string">${esc(publicName)}</publicName>` + keys(pairs),
  );
}

export function queryEnvelope(password: string, publicName: string, pairs: [string, string][], listSize: number): string {
  return envelope(
    'query',
    callContext(password) +
      `<publicName xsi:type="xsd:string">${esc(publicName)}</publicName>` +
      keys(pairs) +
      `<listSize xsi:type="xsd:int">${listSize}</listSize>`,
  );
}

/** The `status` of a CSvcResultXml response (1 success, 0 business failure), or null. */
export function resultStatus(xml: string): number | null {
  const m = /<status\b[^>]*>\s*(-?\d+)\s*<\/status>/.exec(xml);
  return m ? Number(m[1]) : null;
}

/** How many result rows a query returned (`<LIN` elements inside the escaped resultXml). */
export function resultRows(xml: string): number {
  return (xml.match(/&lt;LIN\b|<LIN\b/g) ?? []).length;
}

export const SOAP_HEADERS = { 'content-type': 'text/xml; charset=utf-8', soapaction: '""' };
