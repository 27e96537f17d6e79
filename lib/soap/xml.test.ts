import { describe, expect, it } from 'vitest';
import { XmlSyntaxError, elementChildren, escapeAttr, escapeText, getAttr, parseXml, resolveQName, textContent } from './xml';

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
