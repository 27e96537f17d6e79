// Checks an envelope before node-soap sees it, so that every malformed request gets a
// proper SOAP 1.1 fault (node-soap answers some with faultcode "500" or a stack trace).
import { SoapFault } from './fault';
import { OPERATIONS, SOAP12_ENV_NS, SOAP_ENV_NS, isOperationName, type OperationName } from './namespaces';
import { XML_LIMITS, XmlLimitError, XmlSyntaxError, elementChildren, getAttr, parseXml, type XmlElement, type XmlLimits } from './xml';

// An envelope is read before its caller is known. Real ones hold tens of elements (the
// documents travel as text), and node-soap, which reads it next, costs elements times
// namespace prefixes: both are bounded here.
export const ENVELOPE_LIMITS: Readonly<XmlLimits> = { ...XML_LIMITS, maxElements: 1000, maxNamespaces: 256 };

export interface CheckedEnvelope {
  operation: OperationName;
  /** The operation element (its children are the parts). */
  call: XmlElement;
}

function mustUnderstand(header: XmlElement): XmlElement | undefined {
  return elementChildren(header).find((entry) => {
    const flag = getAttr(entry, 'mustUnderstand', SOAP_ENV_NS)?.trim();
    const actor = getAttr(entry, 'actor', SOAP_ENV_NS)?.trim();
    const targetsUs = actor === undefined || actor === '' || actor === 'http://schemas.xmlsoap.org/soap/actor/next';
    return flag === '1' && targetsUs;
  });
}

export function checkEnvelope(xml: string): CheckedEnvelope {
  let root: XmlElement;
  try {
    root = parseXml(xml, ENVELOPE_LIMITS);
  } catch (err) {
    if (err instanceof XmlSyntaxError) throw new SoapFault('Client', `Malformed XML: ${err.message}`);
    if (err instanceof XmlLimitError) throw new SoapFault('Client', `Envelope over a limit: ${err.message}`);
    throw err;
  }

  if (root.local !== 'Envelope') throw new SoapFault('Client', 'Not a SOAP message: the root element must be Envelope');
  if (root.ns !== SOAP_ENV_NS) {
    const which = root.ns === SOAP12_ENV_NS ? 'SOAP 1.2 is not supported' : `Envelope namespace "${root.ns}" is not SOAP 1.1`;
    throw new SoapFault('VersionMismatch', `${which}; use ${SOAP_ENV_NS}`);
  }

  const parts = elementChildren(root);
  const header = parts.find((p) => p.local === 'Header' && p.ns === SOAP_ENV_NS);
  const body = parts.find((p) => p.local === 'Body' && p.ns === SOAP_ENV_NS);
  if (!body) throw new SoapFault('Client', 'The SOAP Envelope has no Body');
  if (header) {
    const entry = header && mustUnderstand(header);
    if (entry) throw new SoapFault('MustUnderstand', `Header entry ${entry.name} is not understood`);
  }

  // Axis puts multiRef elements after the call; the call is the first element that is
  // not one of them (SOAP 1.1 section 7.1: the first body entry is the call).
  const call = elementChildren(body).find((el) => getAttr(el, 'root', 'http://schemas.xmlsoap.org/soap/encoding/') !== '0');
  if (!call) throw new SoapFault('Client', 'The SOAP Body holds no operation');
  if (!isOperationName(call.local)) {
    const known = Object.keys(OPERATIONS).join(', ');
    throw new SoapFault('Client', `Unknown operation "${call.local}"; this service offers ${known}`);
  }
  return { operation: call.local, call };
}
