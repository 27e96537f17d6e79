// Checks an envelope before node-soap sees it, so that every malformed request gets a
// proper SOAP 1.1 fault (node-soap answers some with faultcode "500" or a stack trace),
// and reads the key it carries, so that node-soap only ever runs for a known caller.
import { SoapFault } from './fault';
import { OPERATIONS, SOAP12_ENV_NS, SOAP_ENV_NS, WSS_NS, XSD_NS, XSI_NS, isOperationName, type OperationName } from './namespaces';
import { XML_LIMITS, XmlLimitError, XmlSyntaxError, elementChildren, getAttr, parseXml, resolveQName, textContent, type XmlElement, type XmlLimits } from './xml';

// An envelope is read before its caller is known. Real ones hold tens of elements (the
// documents travel as text), and node-soap, which reads it next, costs elements times
// namespace prefixes: both are bounded here.
export const ENVELOPE_LIMITS: Readonly<XmlLimits> = { ...XML_LIMITS, maxElements: 1000, maxNamespaces: 128 };

export interface CheckedEnvelope {
  operation: OperationName;
  /** The operation element (its children are the parts). */
  call: XmlElement;
  root: XmlElement;
  body: XmlElement;
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
  return { operation: call.local, call, root, body };
}

/** Who the envelope says is calling, read from the checked tree before node-soap reads the parts. */
export interface EnvelopeCaller {
  /** callContext.password, as node-soap reads it. */
  key: string;
  /** For the log line and the answer of a refused call only: best effort, '' when unclear. */
  codeUser: string;
  requestConfig: string;
  publicName: string;
}

const isType = (el: XmlElement, ns: string, local: string): boolean => {
  const type = getAttr(el, 'type', XSI_NS);
  if (type === undefined) return true;
  const q = resolveQName(el, type);
  return q.ns === ns && q.local === local;
};

// The one element named `local` among el's children (by local name, as node-soap matches
// them); null when there is none, undefined when several.
function onlyChild(el: XmlElement, local: string): XmlElement | null | undefined {
  const found = elementChildren(el).filter((c) => c.local === local);
  return found.length > 1 ? undefined : (found[0] ?? null);
}

// A string member as node-soap and args.ts read it: absent or nil is ''; undefined when the
// two readings could differ (a structure, a reference, another type, inner whitespace).
function stringMember(struct: XmlElement, local: string): string | undefined {
  const el = onlyChild(struct, local);
  if (el === null) return '';
  if (el === undefined || elementChildren(el).length > 0 || getAttr(el, 'href', '') !== undefined || !isType(el, XSD_NS, 'string')) return undefined;
  const text = textContent(el).trim();
  const nil = getAttr(el, 'nil', XSI_NS)?.trim();
  if (nil === 'true' || nil === '1') return text === '' ? '' : undefined;
  return /\s/.test(text) ? undefined : text;
}

/**
 * The caller the envelope names, so that a call without a valid key is refused before
 * node-soap and the operation run. Undefined when only node-soap can tell which key the
 * call carries (several callContexts, an unresolved reference, a typed or spaced key):
 * such a call takes the ordinary path.
 */
export function readCaller(envelope: CheckedEnvelope): EnvelopeCaller | undefined {
  // node-soap dispatches the Body's first element.
  if (elementChildren(envelope.body)[0] !== envelope.call) return undefined;
  const context = onlyChild(envelope.call, 'callContext');
  if (!context) return undefined;
  let struct = context;
  const href = getAttr(context, 'href', '');
  if (href !== undefined) {
    // A multiRef (Axis, .NET): node-soap merges the element whose id the reference names.
    if (elementChildren(context).length > 0) return undefined;
    const targets = elementsWithId(envelope.root, href.slice(1));
    if (targets.length !== 1 || getAttr(targets[0], 'href', '') !== undefined) return undefined;
    struct = targets[0];
  }
  if (!isType(context, WSS_NS, 'CSvcCallContext') || !isType(struct, WSS_NS, 'CSvcCallContext')) return undefined;
  const key = stringMember(struct, 'password');
  if (key === undefined) return undefined;
  return {
    key,
    codeUser: stringMember(struct, 'codeUser') ?? '',
    requestConfig: textOf(onlyChild(struct, 'requestConfig')),
    publicName: textOf(onlyChild(envelope.call, 'publicName')),
  };
}

const textOf = (el: XmlElement | null | undefined): string => (el ? textContent(el).trim() : '');

function elementsWithId(root: XmlElement, id: string): XmlElement[] {
  const found: XmlElement[] = [];
  const visit = (el: XmlElement) => {
    if (getAttr(el, 'id', '') === id) found.push(el);
    for (const child of elementChildren(el)) visit(child);
  };
  visit(root);
  return found;
}
