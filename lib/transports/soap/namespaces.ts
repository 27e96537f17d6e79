// Namespace URIs and the operation table of the wire contract (soap-service.md).
export const SOAP_ENV_NS = 'http://schemas.xmlsoap.org/soap/envelope/';
export const SOAP12_ENV_NS = 'http://www.w3.org/2003/05/soap-envelope';
export const SOAP_ENC_NS = 'http://schemas.xmlsoap.org/soap/encoding/';
export const XSD_NS = 'http://www.w3.org/2001/XMLSchema';
export const XSI_NS = 'http://www.w3.org/2001/XMLSchema-instance';
export const WSDL_NS = 'http://schemas.xmlsoap.org/wsdl/';
export const WSDL_SOAP_NS = 'http://schemas.xmlsoap.org/wsdl/soap/';
export const WSS_NS = 'urn:crossroads:wss';

export const PORT_TYPE = 'CSvcWebServiceXmlCC';
export const SERVICE_NAME = 'CSvcWebServiceXmlCCService';
export const BINDING_NAME = 'CSvcWebServiceXmlCCSoapBinding';

export type PartType = 'CSvcCallContext' | 'ArrayOfCSvcParamKeyValue' | 'string' | 'int';

export interface PartDef {
  name: string;
  type: PartType;
}

const callContext: PartDef = { name: 'callContext', type: 'CSvcCallContext' };
const publicName: PartDef = { name: 'publicName', type: 'string' };
const objectKeys: PartDef = { name: 'objectKeys', type: 'ArrayOfCSvcParamKeyValue' };

/** Input parts of each operation, in wire order. */
export const OPERATIONS = {
  getDescription: [callContext, publicName],
  read: [callContext, publicName, objectKeys],
  query: [callContext, publicName, objectKeys, { name: 'listSize', type: 'int' }],
  save: [callContext, publicName, { name: 'objectXml', type: 'string' }],
  run: [callContext, publicName, { name: 'inputXml', type: 'string' }],
} as const satisfies Record<string, readonly PartDef[]>;

export type OperationName = keyof typeof OPERATIONS;

export function isOperationName(name: string): name is OperationName {
  return Object.prototype.hasOwnProperty.call(OPERATIONS, name);
}

export const CALL_CONTEXT_FIELDS = ['codeLang', 'codeUser', 'password', 'poolAlias', 'poolId', 'requestConfig'] as const;
