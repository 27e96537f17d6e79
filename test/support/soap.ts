// Test support for the SOAP adapter: envelopes in the styles real clients send, and a
// reader for responses that also checks the rpc/encoded typing rules on every one.
import { SOAP_ENC_NS, SOAP_ENV_NS, WSS_NS, XSI_NS } from '@/lib/transports/soap/namespaces';
import { elementChildren, getAttr, parseXml, resolveQName, textContent, type XmlElement } from '@/lib/transports/soap/xml';

export interface Ctx {
  codeLang?: string;
  codeUser?: string;
  password?: string | null;
  poolAlias?: string;
  poolId?: string;
  requestConfig?: string;
}

export type Part =
  | { name: string; string: string | null }
  | { name: string; int: string | number }
  | { name: string; keys: [string, string][] };

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export const str = (name: string, value: string | null): Part => ({ name, string: value });
export const int = (name: string, value: string | number): Part => ({ name, int: value });
export const keys = (name: string, kv: [string, string][]): Part => ({ name, keys: kv });

const CTX_FIELDS = ['codeLang', 'codeUser', 'password', 'poolAlias', 'poolId', 'requestConfig'] as const;

function ctxValue(ctx: Ctx, f: (typeof CTX_FIELDS)[number]): string | null {
  const v = ctx[f];
  return v === undefined ? (f === 'codeLang' ? 'ENG' : '') : v;
}

/** PHP SoapClient: SOAP-ENV prefix, ns1 operation, encodingStyle on Envelope, xsi:type everywhere, item members. */
export function phpEnvelope(op: string, ctx: Ctx, parts: Part[]): string {
  const ctxXml = CTX_FIELDS.map((f) => {
    const v = ctxValue(ctx, f);
    return v === null ? `<${f} xsi:nil="true"/>` : `<${f} xsi:type="xsd:string">${esc(v)}</${f}>`;
  }).join('');
  const partXml = parts
    .map((p) => {
      if ('string' in p) return p.string === null ? `<${p.name} xsi:nil="true"/>` : `<${p.name} xsi:type="xsd:string">${esc(p.string)}</${p.name}>`;
      if ('int' in p) return `<${p.name} xsi:type="xsd:int">${p.int}</${p.name}>`;
      const items = p.keys
        .map(([k, v]) => `<item xsi:type="ns1:CSvcParamKeyValue"><key xsi:type="xsd:string">${esc(k)}</key><value xsi:type="xsd:string">${esc(v)}</value></item>`)
        .join('');
      return `<${p.name} SOAP-ENC:arrayType="ns1:CSvcParamKeyValue[${p.keys.length}]" xsi:type="ns1:ArrayOfCSvcParamKeyValue">${items}</${p.name}>`;
    })
    .join('');
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<SOAP-ENV:Envelope xmlns:SOAP-ENV="${SOAP_ENV_NS}" xmlns:ns1="${WSS_NS}" ` +
    `xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="${XSI_NS}" xmlns:SOAP-ENC="${SOAP_ENC_NS}" ` +
    `SOAP-ENV:encodingStyle="${SOAP_ENC_NS}"><SOAP-ENV:Body><ns1:${op}>` +
    `<callContext xsi:type="ns1:CSvcCallContext">${ctxXml}</callContext>${partXml}</ns1:${op}></SOAP-ENV:Body></SOAP-ENV:Envelope>\n`
  );
}

/** Axis 1.x: encodingStyle on the operation, every struct, array member and int as a multiRef. */
export function axisEnvelope(op: string, ctx: Ctx, parts: Part[]): string {
  let next = 0;
  const refs: string[] = [];
  const multiRef = (type: string, content: string, nsDecl = `xmlns:ns2="${WSS_NS}"`) => {
    const id = `id${next++}`;
    refs.push(
      `<multiRef id="${id}" soapenc:root="0" soapenv:encodingStyle="${SOAP_ENC_NS}" xsi:type="${type}" ` +
        `xmlns:soapenc="${SOAP_ENC_NS}" ${nsDecl}>${content}</multiRef>`,
    );
    return id;
  };
  // Axis writes characters outside the BMP as references to their two UTF-16 halves.
  const axisEsc = (v: string) =>
    esc(v).replace(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g, (pair) =>
      [...Array(2).keys()].map((i) => `&#x${pair.charCodeAt(i).toString(16).toUpperCase()};`).join(''),
    );
  const s = (name: string, v: string | null) =>
    v === null ? `<${name} xsi:type="xsd:string" xsi:nil="true"/>` : `<${name} xsi:type="xsd:string">${axisEsc(v)}</${name}>`;
  const ctxId = multiRef('ns2:CSvcCallContext', CTX_FIELDS.map((f) => s(f, ctxValue(ctx, f))).join(''));
  const partXml = parts
    .map((p) => {
      if ('string' in p) return s(p.name, p.string);
      if ('int' in p) return `<${p.name} href="#${multiRef('xsd:int', String(p.int), '')}"/>`;
      const items = p.keys.map(([k, v]) => `<item href="#${multiRef('ns2:CSvcParamKeyValue', s('key', k) + s('value', v))}"/>`);
      return (
        `<${p.name} xsi:type="soapenc:Array" soapenc:arrayType="ns2:CSvcParamKeyValue[${p.keys.length}]" ` +
        `xmlns:soapenc="${SOAP_ENC_NS}" xmlns:ns2="${WSS_NS}">${items.join('')}</${p.name}>`
      );
    })
    .join('');
  return (
    `<?xml version="1.0" encoding="UTF-8"?><soapenv:Envelope xmlns:soapenv="${SOAP_ENV_NS}" ` +
    `xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="${XSI_NS}"><soapenv:Body>` +
    `<ns1:${op} soapenv:encodingStyle="${SOAP_ENC_NS}" xmlns:ns1="${WSS_NS}"><callContext href="#${ctxId}"/>${partXml}</ns1:${op}>` +
    refs.join('') +
    `</soapenv:Body></soapenv:Envelope>`
  );
}

/** .NET (wsdl.exe proxies): soap prefix, tns-qualified op with encodingStyle on Body, q1 types, members named after the type. */
export function dotnetEnvelope(op: string, ctx: Ctx, parts: Part[]): string {
  const s = (name: string, v: string | null) => (v === null ? `<${name} xsi:nil="true"/>` : `<${name} xsi:type="xsd:string">${esc(v)}</${name}>`);
  const partXml = parts
    .map((p) => {
      if ('string' in p) return s(p.name, p.string);
      if ('int' in p) return `<${p.name} xsi:type="xsd:int">${p.int}</${p.name}>`;
      return `<${p.name} href="#arr"/>`;
    })
    .join('');
  // .NET writes arrays out of line too: the array and each member as separate body entries.
  const arrays = parts
    .filter((p): p is Extract<Part, { keys: unknown }> => 'keys' in p)
    .map(
      (p) =>
        `<soapenc:Array id="arr" soapenc:arrayType="tns:CSvcParamKeyValue[${p.keys.length}]">` +
        p.keys.map(([k]) => `<Item href="#kv${k}"/>`).join('') +
        `</soapenc:Array>` +
        p.keys
          .map(([k, v]) => `<tns:CSvcParamKeyValue id="kv${k}" xsi:type="tns:CSvcParamKeyValue">${s('key', k)}${s('value', v)}</tns:CSvcParamKeyValue>`)
          .join(''),
    )
    .join('');
  return (
    `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${SOAP_ENV_NS}" xmlns:soapenc="${SOAP_ENC_NS}" ` +
    `xmlns:tns="${WSS_NS}" xmlns:types="${WSS_NS}/encodedTypes" xmlns:xsi="${XSI_NS}" xmlns:xsd="http://www.w3.org/2001/XMLSchema">` +
    `<soap:Body soap:encodingStyle="${SOAP_ENC_NS}"><tns:${op}>` +
    `<callContext href="#ctx"/>${partXml}</tns:${op}>` +
    `<tns:CSvcCallContext id="ctx" xsi:type="tns:CSvcCallContext">${CTX_FIELDS.map((f) => s(f, ctxValue(ctx, f))).join('')}</tns:CSvcCallContext>` +
    arrays +
    `</soap:Body></soap:Envelope>`
  );
}

/** SoapUI's generated request: soapenv/urn prefixes, qualified op, unqualified parts, no types, CDATA for XML text. */
export function soapuiEnvelope(op: string, ctx: Ctx, parts: Part[]): string {
  const partXml = parts
    .map((p) => {
      if ('string' in p) {
        if (p.string === null) return `<${p.name} xsi:nil="true"/>`;
        return p.string.includes('<') ? `<${p.name}><![CDATA[${p.string}]]></${p.name}>` : `<${p.name}>${esc(p.string)}</${p.name}>`;
      }
      if ('int' in p) return `<${p.name}>${p.int}</${p.name}>`;
      const items = p.keys.map(([k, v]) => `\n            <urn:CSvcParamKeyValue>\n               <key>${esc(k)}</key>\n               <value>${esc(v)}</value>\n            </urn:CSvcParamKeyValue>`);
      return `<${p.name} soapenc:arrayType="urn:CSvcParamKeyValue[]" xmlns:soapenc="${SOAP_ENC_NS}">${items.join('')}\n         </${p.name}>`;
    })
    .map((x) => `\n         ${x}`)
    .join('');
  const ctxXml = CTX_FIELDS.map((f) => {
    const v = ctxValue(ctx, f);
    return `\n            <${f}>${v === null ? '' : esc(v)}</${f}>`;
  }).join('');
  return (
    `<soapenv:Envelope xmlns:xsi="${XSI_NS}" xmlns:xsd="http://www.w3.org/2001/XMLSchema" ` +
    `xmlns:soapenv="${SOAP_ENV_NS}" xmlns:urn="${WSS_NS}">\n   <soapenv:Header/>\n   <soapenv:Body>\n` +
    `      <urn:${op} soapenv:encodingStyle="${SOAP_ENC_NS}">\n         <callContext xsi:type="urn:CSvcCallContext">${ctxXml}\n         </callContext>` +
    `${partXml}\n      </urn:${op}>\n   </soapenv:Body>\n</soapenv:Envelope>`
  );
}

export const STYLES = { php: phpEnvelope, axis: axisEnvelope, dotnet: dotnetEnvelope, soapui: soapuiEnvelope };

// ---------------------------------------------------------------- responses

export interface ParsedResult {
  operation: string;
  status: number;
  resultXml: string;
  messages: { type: string; message: string }[];
  technicalInfos: { type: string; message: string }[];
}

function fail(message: string): never {
  throw new Error(`Response breaks rpc/encoded typing: ${message}`);
}

function xsiType(el: XmlElement): { ns: string; local: string } | undefined {
  const t = getAttr(el, 'type', XSI_NS);
  return t === undefined ? undefined : resolveQName(el, t);
}

function checkString(el: XmlElement): string {
  const t = xsiType(el);
  if (getAttr(el, 'nil', XSI_NS) === 'true') return '';
  if (!t || t.ns !== 'http://www.w3.org/2001/XMLSchema' || t.local !== 'string') fail(`<${el.name}> is not xsd:string`);
  if (elementChildren(el).length) fail(`<${el.name}> has element content`);
  return textContent(el);
}

function checkArray(el: XmlElement, itemType: string): { type: string; message: string }[] {
  const t = xsiType(el);
  if (!t || t.ns !== SOAP_ENC_NS || t.local !== 'Array') fail(`<${el.name}> is not soapenc:Array`);
  const arrayType = getAttr(el, 'arrayType', SOAP_ENC_NS);
  if (!arrayType) fail(`<${el.name}> has no soapenc:arrayType`);
  const m = /^(.+)\[(\d+)\]$/.exec(arrayType);
  if (!m) fail(`<${el.name}> arrayType "${arrayType}" has no size`);
  const declared = resolveQName(el, m[1]);
  if (declared.ns !== WSS_NS || declared.local !== itemType) fail(`<${el.name}> arrayType is not wss:${itemType}`);
  const items = elementChildren(el);
  if (items.length !== Number(m[2])) fail(`<${el.name}> says [${m[2]}] but holds ${items.length}`);
  return items.map((item) => {
    const it = xsiType(item);
    if (!it || it.ns !== WSS_NS || it.local !== itemType) fail(`member of <${el.name}> is not wss:${itemType}`);
    const fields = new Map(elementChildren(item).map((f) => [f.local, checkString(f)]));
    return { type: fields.get('type') ?? '', message: fields.get('message') ?? '' };
  });
}

/** Parses a 200 response and checks every typing rule of soap-profile.md on the way. */
export function parseResult(body: string): ParsedResult {
  const root = parseXml(body);
  if (root.ns !== SOAP_ENV_NS || root.local !== 'Envelope') fail('root is not a SOAP 1.1 Envelope');
  const bodyEl = elementChildren(root).find((e) => e.local === 'Body' && e.ns === SOAP_ENV_NS) ?? fail('no Body');
  const response = elementChildren(bodyEl)[0] ?? fail('empty Body');
  if (response.ns !== WSS_NS || !response.local.endsWith('Response')) fail(`<${response.name}> is not wss:*Response`);
  if (getAttr(response, 'encodingStyle', SOAP_ENV_NS) !== SOAP_ENC_NS) fail('Response has no soapenv:encodingStyle');
  const operation = response.local.replace(/Response$/, '');
  const ret = elementChildren(response)[0] ?? fail('no Return');
  if (ret.local !== `${operation}Return` || ret.ns !== '') fail(`<${ret.name}> is not an unqualified ${operation}Return`);
  const rt = xsiType(ret);
  if (!rt || rt.ns !== WSS_NS || rt.local !== 'CSvcResultXml') fail('Return is not wss:CSvcResultXml');
  const fields = elementChildren(ret);
  if (fields.map((f) => f.local).join(',') !== 'messages,resultXml,status,technicalInfos') fail('Return fields out of order');
  for (const f of fields) if (f.ns !== '') fail(`<${f.name}> is qualified`);
  const [messages, resultXml, status, infos] = fields;
  const st = xsiType(status);
  if (!st || st.local !== 'int' || st.ns !== 'http://www.w3.org/2001/XMLSchema') fail('status is not xsd:int');
  return {
    operation,
    status: Number(textContent(status)),
    resultXml: checkString(resultXml),
    messages: checkArray(messages, 'CSvcMessage'),
    technicalInfos: checkArray(infos, 'CSvcTechnicalInfos'),
  };
}

export interface ParsedFault {
  faultcode: { ns: string; local: string; raw: string };
  faultstring: string;
}

export function parseFault(body: string): ParsedFault {
  const root = parseXml(body);
  if (root.ns !== SOAP_ENV_NS || root.local !== 'Envelope') throw new Error('fault is not in a SOAP 1.1 Envelope');
  const bodyEl = elementChildren(root).find((e) => e.local === 'Body')!;
  const fault = elementChildren(bodyEl)[0];
  if (fault.local !== 'Fault' || fault.ns !== SOAP_ENV_NS) throw new Error('no soapenv:Fault');
  const code = elementChildren(fault).find((e) => e.local === 'faultcode' && e.ns === '')!;
  const text = elementChildren(fault).find((e) => e.local === 'faultstring' && e.ns === '')!;
  const raw = textContent(code).trim();
  if (!raw.includes(':')) throw new Error(`faultcode "${raw}" is not a qualified QName`);
  return { faultcode: { ...resolveQName(code, raw), raw }, faultstring: textContent(text) };
}
