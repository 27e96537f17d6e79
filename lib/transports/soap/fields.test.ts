import { describe, expect, it } from 'vitest';
import { readParamXml } from './codec';
import { SPAN_FIELDS, TRACE_FIELDS, describeField, paramObject, recordFields } from './fields';

describe('recordFields', () => {
  it('writes each defined field with its type, nulls as NULL and lists as LST', () => {
    const nodes = recordFields(TRACE_FIELDS, {
      id: 't',
      name: 'n',
      sessionId: null,
      status: 'RUNNING',
      tags: ['a'],
      metadata: null,
      totalCost: 1e-7,
      totalTokens: null,
      totalDuration: 5,
      startedAt: '2026-01-01T00:00:00.000Z',
      endedAt: null,
      createdAt: '2026-01-01T00:00:01.000Z',
    });
    expect(nodes.map((n) => (n.kind === 'LST' ? [n.name, n.items] : [n.name, n.type, n.value]))).toEqual([
      ['id', 'Char', 't'],
      ['name', 'Char', 'n'],
      ['sessionId', 'Char', null],
      ['status', 'Char', 'RUNNING'],
      ['tags', ['a']],
      ['metadata', 'Json', null],
      ['totalCost', 'Decimal', '0.0000001'],
      ['totalTokens', 'Decimal', null],
      ['totalDuration', 'Decimal', '5'],
      ['startedAt', 'DateTime', '2026-01-01T00:00:00.000Z'],
      ['endedAt', 'DateTime', null],
      ['createdAt', 'DateTime', '2026-01-01T00:00:01.000Z'],
    ]);
  });
});

describe('paramObject', () => {
  const read = (xml: string) => readParamXml(`<PARAM>${xml}</PARAM>`, 'objectXml').fields;

  it('converts text to numbers, JSON and lists; keeps bad numbers as text for the domain validator', () => {
    const warnings: string[] = [];
    const out = paramObject(
      TRACE_FIELDS,
      read(
        '<FLD NAME="id">t</FLD><FLD NAME="totalCost"> 0.5 </FLD><FLD NAME="totalTokens">lots</FLD><FLD NAME="totalDuration"></FLD>' +
          '<FLD NAME="metadata">{"a":[1]}</FLD><FLD NAME="endedAt" NULL="true"/><LST NAME="tags"><ITM>x</ITM></LST>' +
          '<FLD NAME="createdAt">2020-01-01T00:00:00Z</FLD><FLD NAME="nope">1</FLD>',
      ),
      'TRACE',
      (m) => warnings.push(m),
    );
    expect(out).toEqual({ id: 't', totalCost: 0.5, totalTokens: 'lots', totalDuration: null, metadata: { a: [1] }, endedAt: null, tags: ['x'] });
    expect(warnings).toEqual(['Unknown field "nope" in TRACE ignored']);
  });

  it('names a Json field that is not JSON', () => {
    expect(() => paramObject(SPAN_FIELDS, read('<FLD NAME="input">{x</FLD>'), 'SPANS[1]', () => undefined)).toThrow('SPANS[1].input is not valid JSON');
  });
});

describe('describeField', () => {
  it('marks keys, required fields, lists, read-only fields and enum values', () => {
    expect(describeField(TRACE_FIELDS[0]).attrs).toEqual([['NAM', 'id'], ['TYP', 'Char'], ['KEY', '1'], ['REQ', '1']]);
    expect(describeField(TRACE_FIELDS.find((f) => f.name === 'status')!).attrs).toContainEqual(['VAL', 'RUNNING,COMPLETED,ERROR']);
    expect(describeField(TRACE_FIELDS.find((f) => f.name === 'tags')!).attrs).toContainEqual(['LST', '1']);
  });
});
