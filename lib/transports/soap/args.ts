// Normalises the call's raw parts, as parts.ts reads them from the envelope by node-soap's
// rules (node-soap itself read them until then). The raw shapes are node-soap's:
// `{ attributes, $value }` for typed scalars, strings for ints, one object for a
// one-member array and an array for several (always one under a WSDL array type),
// members under whatever name the client chose (item, CSvcParamKeyValue, ...), null for
// nil and for empty elements, multiRef targets merged into the referencing element. Everything becomes plain typed values
// here; a missing or mistyped part is the client's fault (soapenv:Client).
import { SoapFault } from './fault';
import { CALL_CONTEXT_FIELDS, OPERATIONS, type OperationName, type PartDef } from './namespaces';

export type CallContext = Record<(typeof CALL_CONTEXT_FIELDS)[number], string>;

export interface KeyValue {
  key: string;
  value: string;
}

export interface SoapCall {
  operation: OperationName;
  callContext: CallContext;
  publicName: string;
  objectKeys: KeyValue[];
  /** query only. */
  listSize: number;
  objectXml: string;
  inputXml: string;
}

const ATTRS = 'attributes';
const VALUE = '$value';

type Raw = unknown;

function isRecord(raw: Raw): raw is Record<string, unknown> {
  return typeof raw === 'object' && raw !== null && !Array.isArray(raw) && !(raw instanceof Date);
}

function memberKeys(raw: Record<string, unknown>): string[] {
  return Object.keys(raw).filter((k) => k !== ATTRS && k !== VALUE);
}

function wrongType(path: string, expected: string): never {
  throw new SoapFault('Client', `Part ${path} must be ${expected}`);
}

/** A string-typed value: null (nil or empty) becomes ''. */
export function toScalar(raw: Raw, path: string): string {
  if (raw === undefined || raw === null) return '';
  if (typeof raw === 'string') return raw;
  if (typeof raw === 'number' || typeof raw === 'boolean') return String(raw);
  if (raw instanceof Date) return raw.toISOString();
  if (isRecord(raw)) {
    if (memberKeys(raw).length > 0) wrongType(path, 'a simple value, not a structure');
    const value = raw[VALUE];
    return value === undefined || value === null ? '' : toScalar(value, path);
  }
  return wrongType(path, 'a simple value');
}

const INT = /^[+-]?\d+$/;

export function toInt(raw: Raw, path: string): number {
  if (raw === null) wrongType(path, 'an int (xsd:int), not nil');
  const text = toScalar(raw, path).trim();
  const value = INT.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(value) || value < -2147483648 || value > 2147483647) {
    wrongType(path, `an int (xsd:int), got "${text.slice(0, 40)}"`);
  }
  return value;
}

function toStruct(raw: Raw, path: string): Record<string, unknown> {
  if (raw === undefined || raw === null || raw === '') return {};
  if (!isRecord(raw)) wrongType(path, 'a structure');
  if (typeof raw[VALUE] === 'string' && raw[VALUE].trim() !== '') wrongType(path, 'a structure');
  return raw;
}

export function toCallContext(raw: Raw): CallContext {
  const struct = toStruct(raw, 'callContext');
  const out = {} as CallContext;
  for (const field of CALL_CONTEXT_FIELDS) out[field] = toScalar(struct[field], `callContext.${field}`);
  return out;
}

/** The members of a SOAP-encoded array, whatever their element name, in document order per name. */
export function arrayMembers(raw: Raw, path: string): Record<string, unknown>[] {
  if (raw === undefined || raw === null || raw === '') return [];
  if (typeof raw === 'string') {
    if (raw.trim() === '') return [];
    wrongType(path, 'an array');
  }
  if (!isRecord(raw)) wrongType(path, 'an array');
  if (typeof raw[VALUE] === 'string' && raw[VALUE].trim() !== '') wrongType(path, 'an array');
  const members: Record<string, unknown>[] = [];
  for (const name of memberKeys(raw)) {
    const value = raw[name];
    for (const member of Array.isArray(value) ? value : [value]) {
      if (member === null || member === undefined) continue; // nil member
      if (!isRecord(member)) wrongType(`${path}.${name}`, 'a structure');
      members.push(member);
    }
  }
  return members;
}

export function toKeyValues(raw: Raw, path: string): KeyValue[] {
  return arrayMembers(raw, path)
    .map((m) => ({ key: toScalar(m.key, `${path}.key`).trim(), value: toScalar(m.value, `${path}.value`) }))
    .filter((kv) => kv.key !== '' || kv.value !== '');
}

export const missingPart = (part: string, operation: OperationName) => new SoapFault('Client', `Missing part ${part} in ${operation}`);

// A nil or empty objectKeys/objectXml/inputXml is a legitimate "nothing"; an absent
// callContext, publicName or listSize is not: the call cannot be understood without it.
const REQUIRED = new Set(['callContext', 'publicName', 'listSize']);

export function normalizeArgs(operation: OperationName, raw: Raw): SoapCall {
  const args = isRecord(raw) ? raw : {};
  const parts: readonly PartDef[] = OPERATIONS[operation];
  for (const part of parts) {
    if (REQUIRED.has(part.name) && args[part.name] === undefined) {
      throw missingPart(part.name, operation);
    }
  }
  const has = (name: string) => parts.some((p) => p.name === name);
  return {
    operation,
    callContext: toCallContext(args.callContext),
    publicName: toScalar(args.publicName, 'publicName').trim(),
    objectKeys: has('objectKeys') ? toKeyValues(args.objectKeys, 'objectKeys') : [],
    listSize: has('listSize') ? toInt(args.listSize, 'listSize') : 0,
    objectXml: has('objectXml') ? toScalar(args.objectXml, 'objectXml') : '',
    inputXml: has('inputXml') ? toScalar(args.inputXml, 'inputXml') : '',
  };
}
