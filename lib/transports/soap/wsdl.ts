// The WSDL of the service, in the rpc/encoded shape Axis 1.x generates (the shape
// legacy toolkits understand best). Only the soap:address varies per request.
import { escapeAttr } from './xml';
import {
  BINDING_NAME,
  OPERATIONS,
  PORT_TYPE,
  SERVICE_NAME,
  SOAP_ENC_NS,
  WSDL_NS,
  WSDL_SOAP_NS,
  WSS_NS,
  XSD_NS,
  type PartType,
} from './namespaces';

function partType(type: PartType): string {
  return type === 'string' || type === 'int' ? `xsd:${type}` : `wss:${type}`;
}

function struct(name: string, fields: [string, string][]): string {
  const elements = fields
    .map(([field, type]) => `<element name="${field}" nillable="true" type="${type}"/>`)
    .join('');
  return `<complexType name="${name}"><sequence>${elements}</sequence></complexType>`;
}

// The member element is declared as well as wsdl:arrayType (as gSOAP does): toolkits
// that model soapenc:Array from its own schema (zeep) otherwise cannot type the members.
function arrayOf(item: string): string {
  return (
    `<complexType name="ArrayOf${item}"><complexContent><restriction base="soapenc:Array">` +
    `<sequence><element name="item" type="wss:${item}" minOccurs="0" maxOccurs="unbounded"/></sequence>` +
    `<attribute ref="soapenc:arrayType" wsdl:arrayType="wss:${item}[]"/>` +
    `</restriction></complexContent></complexType>`
  );
}

// The soapenc import names a schemaLocation on this server (see soapenc-xsd.ts).
const types = (soapencLocation: string | null) =>
  `<wsdl:types><schema xmlns="${XSD_NS}" targetNamespace="${WSS_NS}">` +
  (soapencLocation === null
    ? `<import namespace="${SOAP_ENC_NS}"/>`
    : `<import namespace="${SOAP_ENC_NS}" schemaLocation="${escapeAttr(soapencLocation)}"/>`) +
  struct('CSvcCallContext', [
    ['codeLang', 'xsd:string'],
    ['codeUser', 'xsd:string'],
    ['password', 'xsd:string'],
    ['poolAlias', 'xsd:string'],
    ['poolId', 'xsd:string'],
    ['requestConfig', 'xsd:string'],
  ]) +
  struct('CSvcMessage', [
    ['message', 'xsd:string'],
    ['type', 'xsd:string'],
  ]) +
  arrayOf('CSvcMessage') +
  struct('CSvcTechnicalInfos', [
    ['message', 'xsd:string'],
    ['type', 'xsd:string'],
  ]) +
  arrayOf('CSvcTechnicalInfos') +
  // status is an int, never nil: it is written out here rather than through struct().
  `<complexType name="CSvcResultXml"><sequence>` +
  `<element name="messages" nillable="true" type="wss:ArrayOfCSvcMessage"/>` +
  `<element name="resultXml" nillable="true" type="xsd:string"/>` +
  `<element name="status" type="xsd:int"/>` +
  `<element name="technicalInfos" nillable="true" type="wss:ArrayOfCSvcTechnicalInfos"/>` +
  `</sequence></complexType>` +
  struct('CSvcParamKeyValue', [
    ['key', 'xsd:string'],
    ['value', 'xsd:string'],
  ]) +
  arrayOf('CSvcParamKeyValue') +
  `</schema></wsdl:types>`;

const operationNames = Object.keys(OPERATIONS) as (keyof typeof OPERATIONS)[];

const MESSAGES = operationNames
  .map((op) => {
    const parts = OPERATIONS[op].map((p) => `<wsdl:part name="${p.name}" type="${partType(p.type)}"/>`).join('');
    return (
      `<wsdl:message name="${op}Request">${parts}</wsdl:message>` +
      `<wsdl:message name="${op}Response"><wsdl:part name="${op}Return" type="wss:CSvcResultXml"/></wsdl:message>`
    );
  })
  .join('');

const PORT_TYPE_XML =
  `<wsdl:portType name="${PORT_TYPE}">` +
  operationNames
    .map(
      (op) =>
        `<wsdl:operation name="${op}" parameterOrder="${OPERATIONS[op].map((p) => p.name).join(' ')}">` +
        `<wsdl:input message="wss:${op}Request" name="${op}Request"/>` +
        `<wsdl:output message="wss:${op}Response" name="${op}Response"/>` +
        `</wsdl:operation>`,
    )
    .join('') +
  `</wsdl:portType>`;

const BODY = `<wsdlsoap:body encodingStyle="${SOAP_ENC_NS}" namespace="${WSS_NS}" use="encoded"/>`;

const BINDING =
  `<wsdl:binding name="${BINDING_NAME}" type="wss:${PORT_TYPE}">` +
  `<wsdlsoap:binding style="rpc" transport="http://schemas.xmlsoap.org/soap/http"/>` +
  operationNames
    .map(
      (op) =>
        `<wsdl:operation name="${op}"><wsdlsoap:operation soapAction=""/>` +
        `<wsdl:input name="${op}Request">${BODY}</wsdl:input>` +
        `<wsdl:output name="${op}Response">${BODY}</wsdl:output>` +
        `</wsdl:operation>`,
    )
    .join('') +
  `</wsdl:binding>`;

/** The query that serves the SOAP encoding schema. */
export const SOAPENC_QUERY = 'xsd=soapenc';

/**
 * The WSDL document; `address` is the absolute endpoint URL clients will post to.
 * `localSoapenc: false` leaves out the soapenc schemaLocation (for node-soap itself,
 * which would fetch it over HTTP while starting).
 */
export function buildWsdl(address: string, { localSoapenc = true }: { localSoapenc?: boolean } = {}): string {
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<wsdl:definitions targetNamespace="${WSS_NS}" xmlns:wsdl="${WSDL_NS}" xmlns:wsdlsoap="${WSDL_SOAP_NS}" ` +
    `xmlns:soapenc="${SOAP_ENC_NS}" xmlns:xsd="${XSD_NS}" xmlns:wss="${WSS_NS}" xmlns:impl="${WSS_NS}">` +
    types(localSoapenc ? `${address}?${SOAPENC_QUERY}` : null) +
    MESSAGES +
    PORT_TYPE_XML +
    BINDING +
    `<wsdl:service name="${SERVICE_NAME}">` +
    `<wsdl:port binding="wss:${BINDING_NAME}" name="${PORT_TYPE}">` +
    `<wsdlsoap:address location="${escapeAttr(address)}"/>` +
    `</wsdl:port></wsdl:service></wsdl:definitions>\n`
  );
}
