import { describe, expect, it } from 'vitest';
import { XML_LIMITS, XmlLimitError, XmlSyntaxError, elementChildren, escapeAttr, escapeText, getAttr, parseXml, resolveQName, textContent } from './xml';

describe('parseXml', () => {
  it('resolves namespaces of elements and attributes, defaults and redeclarations', () => {
    const root = parseXml(
      `<?xml version="1.0"?><!-- c --><a:root xmlns:a="urn:a" xmlns="urn:d" a:x="1" y="2"><child/><b:c xmlns:b="urn:b"/><a:d xmlns:a="urn:a2"/></a:root>`,
    );
    expect(root).toMatchObject({ local: 'root', prefix: 'a', ns: 'urn:a' });
    expect(getAttr(root, 'x', 'urn:a')).toBe('1');
    expect(getAttr(root, 'y', '')).toBe('2');
    expect(elementChildren(root).map((c) => [c.local, c.ns])).toEqual([
      ['child', 'urn:d'],
      ['c', 'urn:b'],
      ['d', 'urn:a2'],
    ]);
    expect(resolveQName(root, 'a:T')).toEqual({ ns: 'urn:a', local: 'T' });
  });

  it('decodes entities, character references and CDATA, keeping whitespace and any Unicode', () => {
    const root = parseXml(`<r a="&lt;&amp;&quot;&#x1F600;">  &lt;x&gt; &#233;&#x4E2D; <![CDATA[<raw> & ]]]]><![CDATA[>]]> 😀 </r>`);
    expect(getAttr(root, 'a')).toBe('<&"😀');
    expect(textContent(root)).toBe('  <x> é中 <raw> & ]]> 😀 ');
  });

  it('joins surrogate-pair character references as Axis 1.x writes them; a lone half becomes U+FFFD', () => {
    expect(textContent(parseXml('<r>a &#xD83D;&#xDE00; b &#55357;&#56832;</r>'))).toBe('a 😀 b 😀');
    expect(textContent(parseXml('<r>&#xD83D;x&#xDE00;</r>'))).toBe('\uFFFDx\uFFFD');
    expect(textContent(parseXml('<r>&amp;#xD83D;&#x41;</r>'))).toBe('&#xD83D;A');
  });

  it.each([
    ['', 'No root element'],
    ['<a>', 'Unclosed element'],
    ['<a></b>', 'does not match'],
    ['<a/><b/>', 'More than one root'],
    ['<a x="1" x="2"/>', 'Duplicate attribute'],
    ['<p:a/>', 'Unbound namespace prefix'],
    ['<a>&nbsp;</a>', 'Unknown entity'],
    ['<a>&#0;</a>', 'Invalid character reference'],
    ['<!DOCTYPE a [<!ENTITY x "y">]><a>&x;</a>', 'DOCTYPE'],
    ['<a>]]></a>', "']]>'"],
    ['<a>\u0001</a>', 'Character not allowed'],
    ['<a b=1/>', 'quoted attribute'],
    ['text', 'Text outside'],
    ['<a><!-- x </a>', 'Unterminated comment'],
  ])('refuses %j (%s)', (xml, message) => {
    expect(() => parseXml(xml)).toThrow(XmlSyntaxError);
    expect(() => parseXml(xml)).toThrow(message);
  });
});

describe('parseXml limits', () => {
  // Where the parse stopped: a refusal at the limit must not have read the rest of the input.
  const offsetOf = (fn: () => unknown): number => {
    try {
      fn();
    } catch (err) {
      const m = / at offset (\d+)$/.exec((err as Error).message);
      if (m) return Number(m[1]);
      throw err;
    }
    throw new Error('no error');
  };
  const attrs = (n: number, name = (i: number) => `a${i}`) => Array.from({ length: n }, (_, i) => ` ${name(i)}="v"`).join('');

  it('reads an element with as many attributes as the limit, and still finds a duplicate among them', () => {
    expect(parseXml(`<r${attrs(XML_LIMITS.maxAttributesPerElement)}/>`).attrs).toHaveLength(XML_LIMITS.maxAttributesPerElement);
    const last = XML_LIMITS.maxAttributesPerElement - 1;
    expect(() => parseXml(`<r${attrs(last)} a0="w"/>`)).toThrow('Duplicate attribute a0');
  });

  it('refuses 50,000 attributes on one element at the limit, naming it, without reading on', () => {
    const xml = `<r${attrs(50_000)}/>`;
    expect(() => parseXml(xml)).toThrow(XmlLimitError);
    expect(() => parseXml(xml)).toThrow(`Element <r> has more than ${XML_LIMITS.maxAttributesPerElement} attributes (the limit per element)`);
    expect(offsetOf(() => parseXml(xml))).toBeLessThan(20 * (XML_LIMITS.maxAttributesPerElement + 1));
  });

  it('refuses more namespace declarations on one element than the limit, naming it', () => {
    const n = XML_LIMITS.maxNamespacesPerElement;
    expect(parseXml(`<r${attrs(n, (i) => `xmlns:p${i}`)}/>`).local).toBe('r');
    expect(() => parseXml(`<r${attrs(n + 1, (i) => `xmlns:p${i}`)}/>`)).toThrow(
      `Element <r> declares more than ${n} namespaces (the limit per element)`,
    );
  });

  it('refuses nesting deeper than the limit, naming it, without reading on', () => {
    const depth = (n: number) => '<a xmlns:p="urn:p">'.repeat(n) + '</a>'.repeat(n);
    expect(parseXml(depth(XML_LIMITS.maxDepth)).local).toBe('a');
    const deep = depth(4000);
    expect(() => parseXml(deep)).toThrow(`Elements nest deeper than ${XML_LIMITS.maxDepth} levels (the limit)`);
    expect(offsetOf(() => parseXml(deep))).toBeLessThan(20 * (XML_LIMITS.maxDepth + 1));
  });

  it('refuses more elements, attributes or namespace declarations in the document than a caller-given limit', () => {
    const xml = `<r>${'<a xmlns:p="urn:p" b="c"/>'.repeat(10)}</r>`;
    expect(elementChildren(parseXml(xml, { maxElements: 11, maxAttributes: 20, maxNamespaces: 10 }))).toHaveLength(10);
    expect(() => parseXml(xml, { maxElements: 10 })).toThrow('The document has more than 10 elements (the limit)');
    expect(() => parseXml(xml, { maxAttributes: 19 })).toThrow('The document has more than 19 attributes (the limit)');
    expect(() => parseXml(xml, { maxNamespaces: 9 })).toThrow('The document declares more than 9 namespaces (the limit)');
  });

  it("shares the parent's namespace scope instead of copying it: a scope holds its own declarations only", () => {
    const root = parseXml(`<r xmlns:a="urn:a" xmlns:b="urn:b"><c xmlns:d="urn:d"><e/></c></r>`);
    const c = elementChildren(root)[0];
    const e = elementChildren(c)[0];
    expect(c.scope.parent).toBe(root.scope);
    expect([...c.scope.own.keys()]).toEqual(['d']);
    expect(e.scope).toBe(c.scope);
    expect(resolveQName(e, 'a:T')).toEqual({ ns: 'urn:a', local: 'T' });
    expect(resolveQName(e, 'd:T')).toEqual({ ns: 'urn:d', local: 'T' });
    expect(resolveQName(root, 'd:T')).toEqual({ ns: '', local: 'T' });
  });
});

describe('escaping', () => {
  it('escapes text so that ]]> never appears and the value parses back unchanged', () => {
    const value = 'a<b>&c ]]> "q" \'s\' \r\n\t 😀 中文 \u00a0';
    const escaped = escapeText(value);
    expect(escaped).not.toContain(']]>');
    expect(textContent(parseXml(`<r>${escaped}</r>`))).toBe(value);
  });

  it('escapes attributes including quotes and whitespace', () => {
    const value = 'a"b\'c\nd\te<&>';
    expect(getAttr(parseXml(`<r v="${escapeAttr(value)}"/>`), 'v')).toBe(value);
    expect(getAttr(parseXml(`<r v='${escapeAttr(value)}'/>`), 'v')).toBe(value);
  });

  it('replaces characters XML cannot carry with U+FFFD instead of producing a broken document', () => {
    const escaped = escapeText('a\u0000b\u001fc\uD800d');
    expect(textContent(parseXml(`<r>${escaped}</r>`))).toBe('a\uFFFDb\uFFFDc\uFFFDd');
  });
});
