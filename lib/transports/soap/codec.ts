// The XML carried inside resultXml, objectXml and inputXml (soap-profile.md):
// RESULT/PARAM roots, GRP and TAB/LIN groupings, FLD fields and LST lists, TYPE one
// of Char, Decimal, DateTime, Json. Writing escapes every value (the envelope escapes
// the whole document once more); reading accepts what a generic ERP client builds.
import { AppError } from '@/lib/core/errors';
import { XmlLimitError, XmlSyntaxError, elementChildren, escapeAttr, escapeText, getAttr, parseXml, textContent, type XmlElement } from './xml';

export type FieldType = 'Char' | 'Decimal' | 'DateTime' | 'Json';

export interface FldNode {
  kind: 'FLD';
  name: string;
  type: FieldType;
  /** null is written as NULL="true". */
  value: string | null;
}

export interface LstNode {
  kind: 'LST';
  name: string;
  type: FieldType;
  items: string[];
}

export type FieldNode = FldNode | LstNode;

export interface GrpNode {
  kind: 'GRP';
  id: string;
  fields: FieldNode[];
}

export interface LinNode {
  kind: 'LIN';
  num: number;
  fields: FieldNode[];
}

export interface TabNode {
  kind: 'TAB';
  id: string;
  lines: LinNode[];
}

export type ResultNode = GrpNode | TabNode | LinNode | FieldNode;

/** A TAB with one LIN per row, numbered from 1. */
export function tabNode<T>(id: string, rows: readonly T[], fieldsOf: (row: T) => FieldNode[]): TabNode {
  return { kind: 'TAB', id, lines: rows.map((row, i) => ({ kind: 'LIN', num: i + 1, fields: fieldsOf(row) })) };
}

// ---------------------------------------------------------------- generic writer

/** A plain element to serialise: text-only or with children, never mixed. */
export interface OutElement {
  tag: string;
  attrs?: [string, string | number][];
  text?: string;
  children?: OutElement[];
}

/** Serialises el; with beautify, children are indented by two spaces (text is never touched). */
export function writeElement(el: OutElement, beautify = false, depth = 0): string {
  const pad = beautify ? '\n' + '  '.repeat(depth) : '';
  const attrs = (el.attrs ?? []).map(([k, v]) => ` ${k}="${escapeAttr(String(v))}"`).join('');
  const open = `${pad}<${el.tag}${attrs}`;
  if (el.children && el.children.length) {
    const inner = el.children.map((c) => writeElement(c, beautify, depth + 1)).join('');
    return `${open}>${inner}${pad}</${el.tag}>`;
  }
  if (el.text !== undefined && el.text !== '') return `${open}>${escapeText(el.text)}</${el.tag}>`;
  return `${open}/>`;
}

export function writeDocument(root: OutElement, beautify = false): string {
  return writeElement(root, beautify).replace(/^\n/, '');
}

// ---------------------------------------------------------------- RESULT nodes

function fieldElement(f: FieldNode): OutElement {
  if (f.kind === 'LST') {
    return {
      tag: 'LST',
      attrs: [
        ['NAME', f.name],
        ['SIZE', f.items.length],
        ['TYPE', f.type],
      ],
      children: f.items.map((item) => ({ tag: 'ITM', text: item })),
    };
  }
  const attrs: [string, string][] = [
    ['NAME', f.name],
    ['TYPE', f.type],
  ];
  if (f.value === null) return { tag: 'FLD', attrs: [...attrs, ['NULL', 'true']] };
  return { tag: 'FLD', attrs, text: f.value };
}

function nodeElement(node: ResultNode): OutElement {
  switch (node.kind) {
    case 'GRP':
      return { tag: 'GRP', attrs: [['ID', node.id]], children: node.fields.map(fieldElement) };
    case 'LIN':
      return { tag: 'LIN', attrs: [['NUM', node.num]], children: node.fields.map(fieldElement) };
    case 'TAB':
      return {
        tag: 'TAB',
        attrs: [
          ['ID', node.id],
          ['SIZE', node.lines.length],
        ],
        children: node.lines.map(nodeElement),
      };
    default:
      return fieldElement(node);
  }
}

export function writeResultXml(nodes: ResultNode[], beautify = false, root = 'RESULT'): string {
  return writeDocument({ tag: root, children: nodes.map(nodeElement) }, beautify);
}

// ---------------------------------------------------------------- value formatting

/** Plain decimal notation: never exponent form (1e-7 is written 0.0000001). */
export function formatDecimal(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  const s = String(n);
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(s);
  if (!m) return s;
  const [, sign, lead, frac = '', expText] = m;
  const exp = Number(expText);
  const digits = lead + frac;
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
  return sign + digits + '0'.repeat(Math.max(0, exp - frac.length));
}

export const fld = {
  char: (name: string, value: string | null): FldNode => ({ kind: 'FLD', name, type: 'Char', value }),
  decimal: (name: string, value: number | null): FldNode => ({
    kind: 'FLD',
    name,
    type: 'Decimal',
    value: value === null ? null : formatDecimal(value),
  }),
  dateTime: (name: string, value: string | null): FldNode => ({ kind: 'FLD', name, type: 'DateTime', value }),
  json: (name: string, value: unknown): FldNode => ({
    kind: 'FLD',
    name,
    type: 'Json',
    value: value === null || value === undefined ? null : JSON.stringify(value),
  }),
  list: (name: string, items: string[]): LstNode => ({ kind: 'LST', name, type: 'Char', items }),
};

// ---------------------------------------------------------------- PARAM reading

export type ParamValue =
  | { kind: 'FLD'; type?: string; value: string | null }
  | { kind: 'LST'; type?: string; items: string[] };

export type ParamFields = Map<string, ParamValue>;

export interface ParamDoc {
  /** FLD/LST directly under the root and inside every GRP, by name (later wins). */
  fields: ParamFields;
  /** Fields per GRP ID. */
  groups: Map<string, ParamFields>;
  /** Lines per TAB ID. */
  tabs: Map<string, ParamFields[]>;
}

function fieldName(el: XmlElement): string {
  return (getAttr(el, 'NAME') ?? getAttr(el, 'NAM') ?? '').trim();
}

function readField(el: XmlElement, into: ParamFields, where: string): void {
  const name = fieldName(el);
  if (!name) throw new AppError('VALIDATION', `${where}: a ${el.local} without NAME`);
  const type = getAttr(el, 'TYPE') ?? getAttr(el, 'TYP');
  if (el.local === 'FLD') {
    const isNull = /^(true|1)$/i.test(getAttr(el, 'NULL')?.trim() ?? '');
    into.set(name, { kind: 'FLD', type, value: isNull ? null : textContent(el) });
  } else {
    const items = elementChildren(el)
      .filter((c) => c.local === 'ITM' && !/^(true|1)$/i.test(getAttr(c, 'NULL')?.trim() ?? ''))
      .map(textContent);
    into.set(name, { kind: 'LST', type, items });
  }
}

function readFields(parent: XmlElement, into: ParamFields, where: string): void {
  for (const el of elementChildren(parent)) {
    if (el.local === 'FLD' || el.local === 'LST') readField(el, into, where);
  }
}

/**
 * Reads a PARAM (or RESULT) document. `what` names it in error messages
 * ("objectXml", "inputXml"). Empty text is an empty document.
 */
export function readParamXml(text: string, what: string): ParamDoc {
  const doc: ParamDoc = { fields: new Map(), groups: new Map(), tabs: new Map() };
  if (text.trim() === '') return doc;
  let root: XmlElement;
  try {
    root = parseXml(text.trim());
  } catch (err) {
    if (err instanceof XmlSyntaxError) throw new AppError('VALIDATION', `${what} is not well-formed XML: ${err.message}`);
    if (err instanceof XmlLimitError) throw new AppError('VALIDATION', `${what} is over a limit: ${err.message}`);
    throw err;
  }
  if (root.local !== 'PARAM' && root.local !== 'RESULT') {
    throw new AppError('VALIDATION', `${what} must have a PARAM root element, found <${root.name}>`);
  }
  readFields(root, doc.fields, what);
  for (const el of elementChildren(root)) {
    if (el.local === 'GRP') {
      const id = (getAttr(el, 'ID') ?? getAttr(el, 'NAM') ?? '').trim();
      const group: ParamFields = doc.groups.get(id) ?? new Map();
      readFields(el, group, `${what} GRP ${id}`);
      doc.groups.set(id, group);
      for (const [k, v] of group) doc.fields.set(k, v);
    } else if (el.local === 'TAB') {
      const id = (getAttr(el, 'ID') ?? getAttr(el, 'NAM') ?? '').trim();
      const lines = doc.tabs.get(id) ?? [];
      for (const lin of elementChildren(el).filter((c) => c.local === 'LIN')) {
        const line: ParamFields = new Map();
        readFields(lin, line, `${what} TAB ${id} LIN ${lines.length + 1}`);
        lines.push(line);
      }
      doc.tabs.set(id, lines);
    }
  }
  return doc;
}

/** The <RESULT> element holding nodes. */
export function resultElement(nodes: ResultNode[]): OutElement {
  return { tag: 'RESULT', children: nodes.map(nodeElement) };
}
