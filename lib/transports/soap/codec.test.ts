import { describe, expect, it } from 'vitest';
import { AppError } from '@/lib/core/errors';
import { XML_LIMITS } from './xml';
import { fld, formatDecimal, readParamXml, resultElement, writeDocument, writeResultXml } from './codec';

describe('writeResultXml', () => {
  it('writes GRP, TAB/LIN, FLD with TYPE, NULL and LST exactly in the profile shape', () => {
    const xml = writeResultXml([
      { kind: 'GRP', id: 'TRACE', fields: [fld.char('id', 't-1'), fld.decimal('totalCost', 0.0123), fld.dateTime('endedAt', null), fld.json('metadata', { k: 'v' }), fld.list('tags', ['a', 'b'])] },
      { kind: 'TAB', id: 'DECISIONPOINTS', lines: [{ kind: 'LIN', num: 1, fields: [fld.char('id', 'd1')] }] },
      { kind: 'TAB', id: 'SPANS', lines: [] },
    ]);
    expect(xml).toBe(
      '<RESULT><GRP ID="TRACE"><FLD NAME="id" TYPE="Char">t-1</FLD><FLD NAME="totalCost" TYPE="Decimal">0.0123</FLD>' +
        '<FLD NAME="endedAt" TYPE="DateTime" NULL="true"/><FLD NAME="metadata" TYPE="Json">{"k":"v"}</FLD>' +
        '<LST NAME="tags" SIZE="2" TYPE="Char"><ITM>a</ITM><ITM>b</ITM></LST></GRP>' +
        '<TAB ID="DECISIONPOINTS" SIZE="1"><LIN NUM="1"><FLD NAME="id" TYPE="Char">d1</FLD></LIN></TAB><TAB ID="SPANS" SIZE="0"/></RESULT>',
    );
  });

  it('escapes values so that any text reads back unchanged, including ]]> and any Unicode', () => {
    const nasty = `<a href="x">&amp; ]]> ]]]]> 'q' 😀 中文 \u202e \u00a0 \t`;
    const xml = writeResultXml([{ kind: 'GRP', id: 'G', fields: [fld.char('v', nasty), fld.json('j', { nasty }), fld.list('l', [nasty])] }]);
    expect(xml).not.toContain(']]>');
    const doc = readParamXml(xml, 'x');
    expect(doc.fields.get('v')).toEqual({ kind: 'FLD', type: 'Char', value: nasty });
    expect(JSON.parse((doc.fields.get('j') as { value: string }).value)).toEqual({ nasty });
    expect(doc.fields.get('l')).toEqual({ kind: 'LST', type: 'Char', items: [nasty] });
  });

  it('indents with beautify without changing any value', () => {
    const nodes = [{ kind: 'GRP' as const, id: 'G', fields: [fld.char('a', ' x  y '), fld.list('l', ['1'])] }];
    const pretty = writeResultXml(nodes, true);
    expect(pretty).toBe('<RESULT>\n  <GRP ID="G">\n    <FLD NAME="a" TYPE="Char"> x  y </FLD>\n    <LST NAME="l" SIZE="1" TYPE="Char">\n      <ITM>1</ITM>\n    </LST>\n  </GRP>\n</RESULT>');
    expect(readParamXml(pretty, 'x').fields).toEqual(readParamXml(writeResultXml(nodes), 'x').fields);
    expect(writeDocument(resultElement([]), true)).toBe('<RESULT/>');
  });
});

describe('formatDecimal', () => {
  it.each([
    [0.0123, '0.0123'],
    [1e-7, '0.0000001'],
    [-1.5e-10, '-0.00000000015'],
    [1e21, '1000000000000000000000'],
    [1.25e22, '12500000000000000000000'],
    [1500, '1500'],
    [0, '0'],
  ])('%d -> %s', (n, s) => expect(formatDecimal(n)).toBe(s));
});

describe('readParamXml', () => {
  it('reads FLDs under the root and in GRPs, TAB lines, NULL, NAM/TYP spellings and CDATA', () => {
    const doc = readParamXml(
      `<PARAM><FLD NAME="top">1</FLD><GRP ID="TRACE"><FLD NAM="id" TYP="Char">t</FLD><FLD NAME="x" NULL="true"/>` +
        `<FLD NAME="j" TYPE="Json"><![CDATA[{"a":"<b>"}]]></FLD><LST NAME="tags"><ITM>a</ITM><ITM NULL="true"/></LST></GRP>` +
        `<TAB ID="SPANS"><LIN NUM="1"><FLD NAME="id">s1</FLD></LIN><LIN NUM="2"><FLD NAME="id">s2</FLD></LIN></TAB></PARAM>`,
      'objectXml',
    );
    expect([...doc.fields.keys()]).toEqual(['top', 'id', 'x', 'j', 'tags']);
    expect(doc.groups.get('TRACE')?.get('x')).toEqual({ kind: 'FLD', type: undefined, value: null });
    expect(doc.groups.get('TRACE')?.get('j')).toMatchObject({ value: '{"a":"<b>"}' });
    expect(doc.groups.get('TRACE')?.get('tags')).toEqual({ kind: 'LST', type: undefined, items: ['a'] });
    expect(doc.tabs.get('SPANS')?.map((l) => l.get('id'))).toEqual([
      { kind: 'FLD', type: undefined, value: 's1' },
      { kind: 'FLD', type: undefined, value: 's2' },
    ]);
  });

  it('treats empty text as an empty document and refuses other roots, broken XML and unnamed fields', () => {
    expect(readParamXml('  ', 'inputXml').fields.size).toBe(0);
    expect(() => readParamXml('<X/>', 'inputXml')).toThrow('inputXml must have a PARAM root element');
    expect(() => readParamXml('<PARAM>', 'inputXml')).toThrow(/inputXml is not well-formed XML/);
    expect(() => readParamXml('<PARAM><FLD>1</FLD></PARAM>', 'inputXml')).toThrow('without NAME');
  });

  it('refuses a document over a parser limit as a business failure naming the limit', () => {
    const depth = XML_LIMITS.maxDepth + 1;
    const deep = `<PARAM>${'<GRP>'.repeat(depth)}${'</GRP>'.repeat(depth)}</PARAM>`;
    expect(() => readParamXml(deep, 'objectXml')).toThrow(AppError);
    expect(() => readParamXml(deep, 'objectXml')).toThrow(
      new RegExp(`^objectXml is over a limit: Elements nest deeper than ${XML_LIMITS.maxDepth} levels \\(the limit\\) at offset \\d+$`),
    );
  });
});
