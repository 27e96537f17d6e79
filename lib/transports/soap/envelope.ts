// Parses an envelope, the one parse of the request, so that every malformed request gets
// a proper SOAP 1.1 fault, and reads the key it carries, so that the parts are only read
// (parts.ts, from the same tree) for a known caller.
import { missingPart } from './args';
import { SoapFault } from './fault';
import { OPERATIONS, SOAP12_ENV_NS, SOAP_ENV_NS, XSI_NS, isOperationName, type OperationName } from './namespaces';
import { XML_LIMITS, XmlLimitError, XmlSyntaxError, elementChildren, getAttr, parseXml, textContent, type XmlElement, type XmlLimits } from './xml';

// An envelope is read before its caller is known. Real ones hold tens of elements and
// attributes (the documents travel as text): all are bounded here. (The bounds date from
// when node-soap read the envelope a second time, at a cost of elements times namespace
// prefixes; they stay, as the faults over them are part of the contract.)
export const ENVELOPE_LIMITS: Readonly<XmlLimits> = { ...XML_LIMITS, maxElements: 1000, maxAttributes: 4000, maxNamespaces: 128 };

export interface CheckedEnvelope {
  operation: OperationName;
  /** The operation element (its children are the parts). */
  call: XmlElement;
  root: XmlElement;
  body: XmlElement;
  /** What node-soap's SAX parser would have refused in the envelope (parts.ts answers such a call with a Server fault). */
  saxRefusals: string[];
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
  const saxRefusals: string[] = [];
  try {
    // Text runs too: parts.ts reads them as the SAX parser node-soap used did.
    root = parseXml(xml, ENVELOPE_LIMITS, { textRuns: true, saxRefusals });
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
  return { operation: call.local, call, root, body, saxRefusals };
}

/** Who the envelope says is calling, read from the checked tree before the parts are read. */
export interface EnvelopeCaller {
  /** callContext.password. */
  key: string;
  /** For the log line and the answer of a refused call. */
  codeUser: string;
  requestConfig: string;
  publicName: string;
}

// The elements named `local` among el's children, by local name as node-soap matches them.
const childrenNamed = (el: XmlElement, local: string) => elementChildren(el).filter((c) => c.local === local);

// A string member as args.ts reads node-soap's value: trimmed text (node-soap trims each
// run of text and CDATA on its own, which differs only for inner spaces, never in a key);
// '' when absent or nil, and where node-soap's is no string (several, a structure: a fault).
function stringMember(structs: XmlElement[], local: string): string {
  for (const struct of structs) {
    const found = childrenNamed(struct, local);
    if (found.length === 0) continue;
    const [el] = found;
    const nil = getAttr(el, 'nil', XSI_NS)?.trim();
    if (found.length > 1 || elementChildren(el).length > 0 || nil === 'true' || nil === '1') return '';
    return textContent(el).trim();
  }
  return '';
}

/**
 * The caller the envelope names, read the way node-soap and args.ts read callContext, so
 * that a call without a valid key is refused before they run. A call without callContext
 * is the fault args.ts would give it.
 */
export function readCaller(envelope: CheckedEnvelope): EnvelopeCaller {
  const contexts = childrenNamed(envelope.call, 'callContext');
  if (contexts.length === 0) throw missingPart('callContext', envelope.operation);
  // Several callContexts are a fault in args.ts: no key to read.
  const structs = contexts.length === 1 ? memberSources(envelope.root, contexts[0]) : [];
  return {
    key: stringMember(structs, 'password'),
    codeUser: stringMember(structs, 'codeUser'),
    requestConfig: stringMember(structs, 'requestConfig'),
    publicName: stringMember([envelope.call], 'publicName'),
  };
}

// Where callContext's members are, first found first: with href="#id" (Axis and .NET
// multiRefs) node-soap copies the referenced element's members over the element's own,
// taking the last element with that id to close.
function memberSources(root: XmlElement, context: XmlElement): XmlElement[] {
  const href = getAttr(context, 'href', '');
  if (href === undefined) return [context];
  const id = href.slice(1);
  let target: XmlElement | undefined;
  const visit = (el: XmlElement) => {
    for (const child of elementChildren(el)) visit(child);
    if (getAttr(el, 'id', '') === id) target = el;
  };
  visit(root);
  return target ? [target, context] : [context];
}
