// A small, strict, namespace-aware XML reader and the escaping used by every writer
// of the SOAP adapter. It is the one parser of an envelope (envelope.ts checks it, parts.ts
// reads the call's parts from the same tree), so that malformed XML gets a proper fault,
// and it reads the RESULT/PARAM payloads without a second XML dependency.
// DOCTYPE is refused outright: no entity expansion, no external entities. One pass, linear
// in the input: anonymous callers reach it, so every per-element cost is bounded by a limit.

export class XmlSyntaxError extends Error {
  constructor(message: string, position: number) {
    super(`${message} at offset ${position}`);
    this.name = 'XmlSyntaxError';
  }
}

/** Well-formed, but over one of the XmlLimits: the message names the limit. */
export class XmlLimitError extends Error {
  constructor(message: string, position: number) {
    super(`${message} at offset ${position}`);
    this.name = 'XmlLimitError';
  }
}

export interface XmlLimits {
  /** Open elements at once. */
  maxDepth: number;
  /** Attributes of one element, namespace declarations included. */
  maxAttributesPerElement: number;
  /** xmlns and xmlns:p declarations of one element. */
  maxNamespacesPerElement: number;
  /** Elements in the whole document. */
  maxElements: number;
  /** Attributes in the whole document, namespace declarations included. */
  maxAttributes: number;
  /** Namespace declarations in the whole document. */
  maxNamespaces: number;
}

// Far above what any SOAP toolkit or RESULT/PARAM document uses (depth under 10, a handful
// of attributes and declarations), low enough that no element costs more than a constant.
export const XML_LIMITS: Readonly<XmlLimits> = {
  maxDepth: 64,
  maxAttributesPerElement: 64,
  maxNamespacesPerElement: 32,
  maxElements: Number.POSITIVE_INFINITY,
  maxAttributes: Number.POSITIVE_INFINITY,
  maxNamespaces: Number.POSITIVE_INFINITY,
};

export interface XmlAttr {
  name: string;
  prefix: string;
  local: string;
  ns: string;
  value: string;
}

export interface XmlElement {
  name: string;
  prefix: string;
  local: string;
  /** Namespace URI, '' when none. */
  ns: string;
  attrs: XmlAttr[];
  children: XmlNode[];
  /** In-scope prefix bindings ('' is the default namespace). */
  scope: NamespaceScope;
  /** With the textRuns option: each run of text or CDATA directly inside, in document order. */
  runs?: TextRun[];
}

/**
 * One run of character data as a SAX parser reports it: the text between two pieces of
 * markup (an element, comment, processing instruction or CDATA section), or one CDATA
 * section. `at` is the number of child elements before it.
 */
export interface TextRun {
  text: string;
  cdata: boolean;
  at: number;
}

export interface ParseOptions {
  /** Also record the runs of text of every element (XmlElement.runs). */
  textRuns?: boolean;
  /**
   * Filled with what this parser accepts and a strict SAX parser (sax-js, node-soap's)
   * refuses: a reference to half a surrogate pair (read here as U+FFFD) and "--" inside
   * a comment.
   */
  saxRefusals?: string[];
}

/**
 * The prefix bindings in scope at an element: its own declarations over its parent's
 * scope, which is shared, not copied (a copy per element is quadratic in nesting).
 * An element that declares nothing has its parent's scope.
 */
export class NamespaceScope {
  constructor(
    readonly parent: NamespaceScope | null,
    readonly own: ReadonlyMap<string, string>,
  ) {}

  get(prefix: string): string | undefined {
    return this.own.get(prefix) ?? this.parent?.get(prefix);
  }
}

export type XmlNode = XmlElement | string;

export const XML_NS = 'http://www.w3.org/XML/1998/namespace';
const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';

const NAME_START = /[A-Za-z_:\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u02FF\u0370-\u037D\u037F-\u1FFF\u200C-\u200D\u2070-\u218F\u2C00-\u2FEF\u3001-\uD7FF\uF900-\uFDCF\uFDF0-\uFFFD\uD800-\uDBFF]/;
const NAME_CHAR = /[-.0-9A-Za-z_:\u00B7\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u037D\u037F-\u1FFF\u200C-\u200D\u203F-\u2040\u2070-\u218F\u2C00-\u2FEF\u3001-\uD7FF\uF900-\uFDCF\uFDF0-\uFFFD\uD800-\uDFFF]/;
// Characters XML 1.0 cannot carry at all, not even as a character reference.
const INVALID_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const isDeclaration = (attrName: string) => attrName === 'xmlns' || attrName.startsWith('xmlns:');

function splitName(name: string): { prefix: string; local: string } {
  const i = name.indexOf(':');
  return i < 0 ? { prefix: '', local: name } : { prefix: name.slice(0, i), local: name.slice(i + 1) };
}

const charRef = (ref: string) => (ref[0] === 'x' ? parseInt(ref.slice(1), 16) : parseInt(ref, 10));
const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;

/**
 * Axis 1.x writes a character outside the BMP as two references to its UTF-16
 * surrogates (&#xD83D;&#xDE00;). Not XML, but common: such pairs become the character.
 * Also applied to whole envelopes before they are parsed (node-soap's parser, which read
 * them until parts.ts, refused such pairs, and clients rely on their being joined).
 */
export function joinSurrogateReferences(text: string): string {
  if (text.indexOf('&#') < 0) return text;
  return text.replace(/&#(x[0-9A-Fa-f]+|[0-9]+);&#(x[0-9A-Fa-f]+|[0-9]+);/g, (whole, a: string, b: string) => {
    const hi = charRef(a);
    const lo = charRef(b);
    return isHigh(hi) && isLow(lo) ? String.fromCharCode(hi, lo) : whole;
  });
}

function decodeEntities(raw: string, at: number, onLoneSurrogate?: () => void): string {
  if (raw.indexOf('&') < 0) return raw;
  return joinSurrogateReferences(raw).replace(/&([^;&\s]*);?/g, (whole, ref: string) => {
    if (!whole.endsWith(';')) throw new XmlSyntaxError('Unterminated entity reference', at);
    switch (ref) {
      case 'amp':
        return '&';
      case 'lt':
        return '<';
      case 'gt':
        return '>';
      case 'quot':
        return '"';
      case 'apos':
        return "'";
    }
    const m = /^#(?:x([0-9A-Fa-f]+)|([0-9]+))$/.exec(ref);
    if (!m) throw new XmlSyntaxError(`Unknown entity &${ref};`, at);
    const code = m[1] !== undefined ? parseInt(m[1], 16) : parseInt(m[2], 10);
    if (isHigh(code) || isLow(code)) {
      onLoneSurrogate?.();
      return '\uFFFD'; // half of a pair: keep the text readable
    }
    if (
      !(code === 0x9 || code === 0xa || code === 0xd || (code >= 0x20 && code <= 0xd7ff) ||
        (code >= 0xe000 && code <= 0xfffd) || (code >= 0x10000 && code <= 0x10ffff))
    ) {
      throw new XmlSyntaxError(`Invalid character reference &${ref};`, at);
    }
    return String.fromCodePoint(code);
  });
}

/** Parses a whole document and returns its root element. Throws XmlSyntaxError, or XmlLimitError over a limit. */
export function parseXml(input: string, overrides: Partial<XmlLimits> = {}, options: ParseOptions = {}): XmlElement {
  const limits: XmlLimits = { ...XML_LIMITS, ...overrides };
  let text = input;
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const bad = INVALID_CHARS.exec(text);
  if (bad) throw new XmlSyntaxError('Character not allowed in XML', bad.index);

  let pos = 0;
  let root: XmlElement | undefined;
  let elements = 0;
  let attributes = 0;
  let namespaces = 0;
  const stack: XmlElement[] = [];
  const rootScope = new NamespaceScope(null, new Map([['xml', XML_NS]]));

  const fail = (message: string): never => {
    throw new XmlSyntaxError(message, pos);
  };
  const refusals = options.saxRefusals;
  const onLoneSurrogate = refusals ? () => refusals.push(`A reference to half a surrogate pair at offset ${pos}`) : undefined;
  const overLimit = (message: string): never => {
    throw new XmlLimitError(message, pos);
  };

  const readName = (): string => {
    const start = pos;
    if (!NAME_START.test(text[pos] ?? '')) fail('Expected a name');
    pos++;
    while (pos < text.length && NAME_CHAR.test(text[pos])) pos++;
    return text.slice(start, pos);
  };

  const skipSpace = (): boolean => {
    const start = pos;
    while (pos < text.length && /[ \t\r\n]/.test(text[pos])) pos++;
    return pos > start;
  };

  // Child elements so far per element, for TextRun.at (textRuns only).
  const elementCounts = new Map<XmlElement, number>();
  const addText = (value: string, cdata = false) => {
    const parent = stack[stack.length - 1];
    if (!parent) {
      if (value.trim() !== '') fail('Text outside the root element');
      return;
    }
    if (options.textRuns) {
      (parent.runs ??= []).push({ text: value, cdata, at: elementCounts.get(parent) ?? 0 });
    }
    const last = parent.children[parent.children.length - 1];
    if (typeof last === 'string') parent.children[parent.children.length - 1] = last + value;
    else parent.children.push(value);
  };

  while (pos < text.length) {
    const lt = text.indexOf('<', pos);
    if (lt < 0) {
      addText(decodeEntities(text.slice(pos), pos, onLoneSurrogate));
      pos = text.length;
      break;
    }
    if (lt > pos) {
      const raw = text.slice(pos, lt);
      if (raw.includes(']]>')) fail("']]>' is not allowed in text");
      addText(decodeEntities(raw, pos, onLoneSurrogate));
      pos = lt;
    }

    if (text.startsWith('<!--', pos)) {
      const end = text.indexOf('-->', pos + 4);
      if (end < 0) fail('Unterminated comment');
      const comment = text.slice(pos + 4, end);
      if (refusals && (comment.includes('--') || comment.endsWith('-'))) refusals.push(`"--" inside a comment at offset ${pos}`);
      pos = end + 3;
    } else if (text.startsWith('<![CDATA[', pos)) {
      if (!stack.length) fail('CDATA outside the root element');
      const end = text.indexOf(']]>', pos + 9);
      if (end < 0) fail('Unterminated CDATA section');
      addText(text.slice(pos + 9, end), true);
      pos = end + 3;
    } else if (text.startsWith('<?', pos)) {
      const end = text.indexOf('?>', pos + 2);
      if (end < 0) fail('Unterminated processing instruction');
      const target = /^<\?([^\s?]+)/.exec(text.slice(pos, end))?.[1] ?? '';
      if (target.toLowerCase() === 'xml' && pos !== 0) fail('XML declaration not at the start');
      pos = end + 2;
    } else if (text.startsWith('<!', pos)) {
      fail('DOCTYPE and other declarations are not accepted');
    } else if (text.startsWith('</', pos)) {
      pos += 2;
      const name = readName();
      skipSpace();
      if (text[pos] !== '>') fail('Expected >');
      pos++;
      const open = stack.pop();
      if (!open) fail(`Unexpected closing tag </${name}>`);
      if (open!.name !== name) fail(`Closing tag </${name}> does not match <${open!.name}>`);
    } else {
      pos++;
      if (root && !stack.length) fail('More than one root element');
      const name = readName();
      if (stack.length >= limits.maxDepth) overLimit(`Elements nest deeper than ${limits.maxDepth} levels (the limit)`);
      if (++elements > limits.maxElements) overLimit(`The document has more than ${limits.maxElements} elements (the limit)`);
      const rawAttrs: { name: string; value: string }[] = [];
      const seen = new Set<string>();
      let declarations = 0;
      let selfClosing = false;
      for (;;) {
        const spaced = skipSpace();
        if (text[pos] === '>') {
          pos++;
          break;
        }
        if (text.startsWith('/>', pos)) {
          pos += 2;
          selfClosing = true;
          break;
        }
        if (pos >= text.length) fail('Unterminated start tag');
        if (!spaced) fail('Expected whitespace between attributes');
        const attrName = readName();
        if (rawAttrs.length >= limits.maxAttributesPerElement) {
          overLimit(`Element <${name}> has more than ${limits.maxAttributesPerElement} attributes (the limit per element)`);
        }
        if (++attributes > limits.maxAttributes) overLimit(`The document has more than ${limits.maxAttributes} attributes (the limit)`);
        if (seen.has(attrName)) fail(`Duplicate attribute ${attrName}`);
        seen.add(attrName);
        if (isDeclaration(attrName)) {
          if (++declarations > limits.maxNamespacesPerElement) {
            overLimit(`Element <${name}> declares more than ${limits.maxNamespacesPerElement} namespaces (the limit per element)`);
          }
          if (++namespaces > limits.maxNamespaces) {
            overLimit(`The document declares more than ${limits.maxNamespaces} namespaces (the limit)`);
          }
        }
        skipSpace();
        if (text[pos] !== '=') fail('Expected = after attribute name');
        pos++;
        skipSpace();
        const quote = text[pos];
        if (quote !== '"' && quote !== "'") fail('Expected a quoted attribute value');
        const end = text.indexOf(quote, pos + 1);
        if (end < 0) fail('Unterminated attribute value');
        const raw = text.slice(pos + 1, end);
        if (raw.includes('<')) fail("'<' is not allowed in an attribute value");
        // Attribute-value normalisation: literal whitespace becomes a space.
        rawAttrs.push({ name: attrName, value: decodeEntities(raw.replace(/[\t\r\n]/g, ' '), pos, onLoneSurrogate) });
        pos = end + 1;
      }

      const parentScope = stack.length ? stack[stack.length - 1].scope : rootScope;
      let own: Map<string, string> | undefined;
      for (const a of rawAttrs) {
        if (isDeclaration(a.name)) {
          const prefix = a.name === 'xmlns' ? '' : a.name.slice(6);
          if (prefix && a.value === '') fail(`Empty namespace for prefix ${prefix}`);
          (own ??= new Map()).set(prefix, a.value);
        }
      }
      const scope = own ? new NamespaceScope(parentScope, own) : parentScope;
      const { prefix, local } = splitName(name);
      if (!local || local.includes(':')) fail(`Bad element name ${name}`);
      const ns = scope.get(prefix) ?? (prefix ? fail(`Unbound namespace prefix ${prefix}`) : '');
      const attrs: XmlAttr[] = rawAttrs.map((a) => {
        const n = splitName(a.name);
        const isDecl = isDeclaration(a.name);
        const attrNs = isDecl
          ? XMLNS_NS
          : n.prefix
            ? (scope.get(n.prefix) ?? fail(`Unbound namespace prefix ${n.prefix}`))
            : '';
        return { name: a.name, prefix: n.prefix, local: n.local, ns: attrNs, value: a.value };
      });
      const el: XmlElement = { name, prefix, local, ns: ns as string, attrs, children: [], scope };
      if (stack.length) {
        const parent = stack[stack.length - 1];
        parent.children.push(el);
        if (options.textRuns) elementCounts.set(parent, (elementCounts.get(parent) ?? 0) + 1);
      } else root = el;
      if (!selfClosing) stack.push(el);
    }
  }
  if (stack.length) throw new XmlSyntaxError(`Unclosed element <${stack[stack.length - 1].name}>`, pos);
  if (!root) throw new XmlSyntaxError('No root element', pos);
  return root;
}

export function elementChildren(el: XmlElement): XmlElement[] {
  return el.children.filter((c): c is XmlElement => typeof c !== 'string');
}

/** The concatenated text directly inside el (CDATA included). */
export function textContent(el: XmlElement): string {
  let out = '';
  for (const c of el.children) out += typeof c === 'string' ? c : textContent(c);
  return out;
}

/** Value of an attribute by local name, optionally restricted to one namespace. */
export function getAttr(el: XmlElement, local: string, ns?: string): string | undefined {
  return el.attrs.find((a) => a.local === local && (ns === undefined ? a.ns !== XMLNS_NS : a.ns === ns))?.value;
}

/** Resolves a QName found in content (xsi:type="wss:CSvcCallContext") against el's scope. */
export function resolveQName(el: XmlElement, qname: string): { ns: string; local: string } {
  const { prefix, local } = splitName(qname.trim());
  return { ns: el.scope.get(prefix) ?? '', local };
}

// Characters XML 1.0 cannot hold become U+FFFD: a stored value with a control
// character must still produce a document every client can parse.
const UNREPRESENTABLE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Escapes element content. `>` is always escaped, so `]]>` can never appear. */
export function escapeText(value: string): string {
  return value
    .replace(UNREPRESENTABLE, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\r/g, '&#13;');
}

/** Escapes an attribute value (quotes and whitespace that normalisation would eat). */
export function escapeAttr(value: string): string {
  return escapeText(value)
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
    .replace(/\t/g, '&#9;')
    .replace(/\n/g, '&#10;');
}
