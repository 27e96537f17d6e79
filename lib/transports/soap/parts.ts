// The call's parts read from the envelope's one parsed tree (envelope.ts), in the shapes
// args.ts normalises. Until this module, node-soap parsed every envelope a second time
// to produce them; legacy clients were tested against what it read, so its reading rules
// are kept here exactly, including the odd ones:
// - members by local name, whatever their namespace; a name seen twice becomes an array;
// - an element with attributes holds { attributes, $value }, one without is its text;
// - each run of text (the text between two pieces of markup, or one CDATA section) is
//   trimmed on its own; runs join, except under attributes, where the last run wins;
//   text replaces members read before it, and a member after text is an error;
// - a member of an xsi:type the WSDL defines is typed by it (see WSDL_TYPES);
// - xsi:nil="true" or "1" (any prefix declared for XSI, the last declaration seen in the
//   document wins) and elements with nothing in them are null;
// - a CDATA section holding an XML declaration is read as a document of its own;
// - href="#id" copies the members of the element with that id (the last one to close)
//   over the referring element's own;
// - an element named like a property of every JS object (toString, constructor...), or
//   an href or id naming one, is a failure;
// - the call is the first member of the Body (after its attributes); a Body whose first
//   element is not a message of the service, or holds a Fault, is not dispatched.
// What node-soap could not dispatch is an Error here (a Server fault, as before).
import type { CheckedEnvelope } from './envelope';
import { CALL_CONTEXT_FIELDS, OPERATIONS, SOAP_ENV_NS, WSS_NS, XSI_NS } from './namespaces';
import { parseXml, type XmlElement } from './xml';

const ATTRS = 'attributes';
const VALUE = '$value';
// node-soap's name for the prefix of an unprefixed name (utils.TNS_PREFIX).
const NO_PREFIX = '__tns__';

type Obj = Record<string, unknown>;

interface Frame {
  name: string | null;
  object: unknown;
  schema: unknown;
  id?: string;
  nil: boolean;
}

// ---------------------------------------------------------------- schemas
// node-soap types what it reads by a schema: the WSDL's complex types for an element with
// xsi:type naming one (by the prefix's last declaration in the document), then the
// schema of the parent. The parts themselves get none (rpc/encoded messages describe
// no types it uses). A schema makes a member an array even when alone (item[]), an
// empty xsd:string member '' rather than null, and xsd:int text a number (parseInt).
// These are the WSDL's types as node-soap describes them (parts-oracle.test.ts checks).
type Schema = { [key: string]: Schema | string };

const STRING = 'xsd:string';
const fields = (...names: readonly string[]): Schema => Object.fromEntries(names.map((n) => [n, STRING]));
const nested = (schema: Schema): Schema => ({ ...schema, targetNSAlias: 'wss', targetNamespace: WSS_NS });
const arrayOf = (item: Schema): Schema => ({ 'item[]': nested(item) });

const MESSAGE = fields('message', 'type');
const KEY_VALUE = fields('key', 'value');

export const WSDL_TYPES: Readonly<Record<string, Schema>> = {
  CSvcCallContext: fields(...CALL_CONTEXT_FIELDS),
  CSvcMessage: MESSAGE,
  ArrayOfCSvcMessage: arrayOf(MESSAGE),
  CSvcTechnicalInfos: MESSAGE,
  ArrayOfCSvcTechnicalInfos: arrayOf(MESSAGE),
  CSvcResultXml: {
    messages: nested(arrayOf(MESSAGE)),
    resultXml: STRING,
    status: 'xsd:int',
    technicalInfos: nested(arrayOf(MESSAGE)),
  },
  CSvcParamKeyValue: KEY_VALUE,
  ArrayOfCSvcParamKeyValue: arrayOf(KEY_VALUE),
};

// The schema node-soap starts from, for the envelope itself.
const ENVELOPE_SCHEMA: Schema = {
  Envelope: {
    Header: { Security: { UsernameToken: { Username: 'string', Password: 'string' } } },
    Body: { Fault: { faultcode: 'string', faultstring: 'string', detail: 'string' } },
  },
};

// A fresh copy, as node-soap describes a type anew each time.
const copy = (schema: Schema): Schema => JSON.parse(JSON.stringify(schema)) as Schema;

/** The local name of a schema that is a type name (xsd:string -> string), else undefined. */
const typeName = (schema: unknown) => (typeof schema === 'string' ? splitQName(schema).name : undefined);

const member = (schema: unknown, key: string): unknown =>
  typeof schema === 'object' && schema !== null ? (schema as Record<string, unknown>)[key] : typeof schema === 'string' ? (schema as unknown as Record<string, unknown>)[key] : undefined;

interface Ref {
  hrefs: Obj[];
  obj: unknown;
}

/** Thrown where node-soap failed or dispatched something else: the caller answers with a Server fault. */
export class UndispatchedError extends Error {}

function splitQName(name: string): { prefix: string; name: string } {
  const i = name.indexOf(':');
  return { prefix: name.slice(0, Math.max(i, 0)) || NO_PREFIX, name: name.slice(i + 1) };
}

const isPlainObject = (value: unknown): value is Obj =>
  typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;

// Names the Object prototype answers to: node-soap's plain-object maps trip over them.
const inherited = (key: string) => key in {};

const OPERATION_NAMES = Object.keys(OPERATIONS);
// The messages node-soap finds for a Body's first element: an operation's own name, its
// request and response messages, and the "Solicit" alias it also accepts.
const MESSAGES = new Set(OPERATION_NAMES.flatMap((op) => [op, `${op}Request`, `${op}Response`, `${op}Solicit`]));

function toObject(rootEl: XmlElement): unknown {
  const root: Obj = {};
  const stack: Frame[] = [{ name: null, object: root, schema: ENVELOPE_SCHEMA, nil: false }];
  // Prefixes declared for XSI, in the order first seen.
  const xsiPrefixes = new Set<string>();
  const xmlns = new Map<string, string>();
  let envPrefix = 'soap';
  let objectName: string | null = null;
  const refs = new Map<string, Ref>();

  const setValue = (top: Frame, value: unknown) => {
    const object = top.object as Obj;
    if (typeof object === 'object' && object !== null && object[ATTRS]) object[VALUE] = value;
    else top.object = value;
  };

  const onText = (raw: string) => {
    const text = raw.trim();
    if (!text.length) return;
    const top = stack[stack.length - 1];
    const type = typeName(top.schema);
    if (type === 'int' || type === 'integer' || type === 'short' || type === 'long') setValue(top, parseInt(text, 10));
    else setValue(top, typeof top.object !== 'string' ? text : top.object + text);
  };

  const onCdata = (raw: string) => {
    const text = raw.trim();
    if (!text.length) return;
    if (/<\?xml[\s\S]+\?>/.test(text)) {
      let nested: XmlElement;
      const saxRefusals: string[] = [];
      try {
        nested = parseXml(text, {}, { textRuns: true, saxRefusals });
      } catch (err) {
        throw new UndispatchedError(`node-soap would fail on the XML in a CDATA section: ${(err as Error).message}`);
      }
      if (saxRefusals.length) throw new UndispatchedError(`node-soap would fail on the XML in a CDATA section: ${saxRefusals[0]}`);
      setValue(stack[stack.length - 1], toObject(nested));
    } else {
      onText(raw);
    }
  };

  const open = (el: XmlElement) => {
    const top = stack[stack.length - 1];
    // node-soap looks every element's name up in its plain-object table of messages.
    if (inherited(splitQName(el.name).name)) throw new UndispatchedError(`node-soap fails on an element named ${el.name}`);
    const obj: Obj = {};
    const attr = (name: string) => el.attrs.find((a) => a.name === name)?.value;
    const href = attr('href');
    const id = attr('id');
    if (href) {
      const target = href.slice(1);
      if (inherited(target)) throw new UndispatchedError(`node-soap fails on href="${href}"`);
      if (!refs.has(target)) refs.set(target, { hrefs: [], obj: null });
      refs.get(target)!.hrefs.push(obj);
    }
    if (id) {
      if (inherited(id)) throw new UndispatchedError(`node-soap fails on id="${id}"`);
      if (!refs.has(id)) refs.set(id, { hrefs: [], obj: null });
    }
    const attributes: Record<string, string> = {};
    let hasAttributes = false;
    for (const a of el.attrs) {
      if (/^xmlns:|^xmlns$/.test(a.name)) {
        const prefix = splitQName(a.name).name;
        xmlns.set(prefix, a.value);
        if (a.value === XSI_NS) xsiPrefixes.add(prefix);
        if (a.value === SOAP_ENV_NS) envPrefix = prefix;
        continue;
      }
      hasAttributes = true;
      attributes[a.name] = a.value;
    }
    let nil = false;
    for (const [name, value] of Object.entries(attributes)) {
      const q = splitQName(name);
      if (q.name === 'nil' && xmlns.get(q.prefix) === XSI_NS && value && (value.toLowerCase() === 'true' || value === '1')) {
        nil = true;
        break;
      }
    }
    if (hasAttributes) obj[ATTRS] = attributes;
    const name = splitQName(el.name).name;
    let topSchema = top.schema;
    if (!objectName && xmlns.get(envPrefix) && top.name === 'Body' && name !== 'Fault') {
      if (!MESSAGES.has(name)) throw new UndispatchedError(`node-soap finds no message for <${el.name}>`);
      // The message's description names the message, never the operation element's own name.
      topSchema = undefined;
      objectName = name;
    }
    let xsiType: string | undefined;
    for (const prefix of xsiPrefixes) {
      if (`${prefix}:type` in attributes) {
        xsiType = attributes[`${prefix}:type`];
        break;
      }
    }
    let xsiTypeSchema: Schema | undefined;
    if (xsiType) {
      const type = splitQName(xsiType);
      const uri = type.prefix === NO_PREFIX ? xmlns.get(type.prefix) || xmlns.get('xmlns') : xmlns.get(type.prefix);
      if (uri === WSS_NS && Object.prototype.hasOwnProperty.call(WSDL_TYPES, type.name)) xsiTypeSchema = copy(WSDL_TYPES[type.name]);
    }
    const arrayName = `${name}[]`;
    const key = member(topSchema, arrayName) ? arrayName : name;
    const fromParent = topSchema ? member(topSchema, name) || member(topSchema, arrayName) || member(topSchema, key) || member(topSchema, `${key}[]`) : undefined;
    stack.push({ name, object: obj, schema: xsiTypeSchema || fromParent, id: id || undefined, nil });
  };

  const close = (el: XmlElement) => {
    const cur = stack.pop()!;
    let obj = cur.object;
    const top = stack[stack.length - 1];
    if (typeName(cur.schema) === 'string' && typeof obj === 'object' && obj !== null && Object.keys(obj).length === 0) obj = cur.object = '';
    if (cur.nil) obj = null;
    if (isPlainObject(obj) && !Object.keys(obj).length) obj = null;
    const name = splitQName(el.name).name;
    if (typeof top.object !== 'object' || top.object === null) {
      throw new UndispatchedError(`node-soap fails on <${el.name}> after text`);
    }
    const parent = top.object as Obj;
    if (member(top.schema, `${name}[]`)) {
      if (!parent[name]) parent[name] = [];
      if (!Array.isArray(parent[name])) throw new UndispatchedError(`node-soap fails on <${el.name}>`);
      (parent[name] as unknown[]).push(obj);
    } else if (name in parent) {
      if (!Array.isArray(parent[name])) parent[name] = [parent[name]];
      (parent[name] as unknown[]).push(obj);
    } else {
      parent[name] = obj;
    }
    if (cur.id) refs.get(cur.id)!.obj = obj;
  };

  const visit = (el: XmlElement) => {
    open(el);
    const runs = el.runs ?? [];
    let r = 0;
    const flushRuns = (upTo: number) => {
      for (; r < runs.length && runs[r].at <= upTo; r++) {
        if (runs[r].cdata) onCdata(runs[r].text);
        else onText(runs[r].text);
      }
    };
    let index = 0;
    for (const child of el.children) {
      if (typeof child === 'string') continue;
      flushRuns(index);
      visit(child);
      index++;
    }
    flushRuns(Number.POSITIVE_INFINITY);
    close(el);
  };
  visit(rootEl);

  for (const ref of refs.values()) {
    for (const obj of ref.hrefs) Object.assign(obj, ref.obj);
  }
  const envelope = root.Envelope as Obj | undefined;
  if (envelope) {
    const body = envelope.Body as Obj | undefined;
    if (body && body.Fault) throw new UndispatchedError('node-soap reads a Fault in the Body');
    return envelope;
  }
  return root;
}

/**
 * The raw parts of the call the envelope makes, read as node-soap read them, for
 * normalizeArgs. Throws UndispatchedError where node-soap failed, dispatched nothing or
 * another operation than the call envelope.ts found.
 */
export function readRawParts(envelope: CheckedEnvelope): unknown {
  const { operation } = envelope;
  if (envelope.saxRefusals.length) throw new UndispatchedError(`node-soap would fail: ${envelope.saxRefusals[0]}`);
  const obj = toObject(envelope.root) as Obj;
  const body = (obj.Body ? obj.Body : obj) as Obj;
  const keys = Object.keys(body);
  const messageName = keys[0] === ATTRS ? keys[1] : keys[0];
  if (messageName !== operation) {
    throw new UndispatchedError(`node-soap dispatches ${messageName ?? 'nothing'}, the envelope calls ${operation}`);
  }
  return body[messageName];
}
