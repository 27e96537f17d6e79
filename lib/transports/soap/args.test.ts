// node-soap's raw argument shapes, produced by node-soap itself from real envelopes,
// normalised to typed values.
import { describe, expect, it } from 'vitest';
import { arrayMembers, normalizeArgs, toInt, toKeyValues, toScalar } from './args';
import { SoapFault } from './fault';
import { dispatchWithNodeSoap } from '@/test/soap/node-soap-oracle';
import { STYLES, int, keys, str } from '@/test/support/soap';

describe('normalizeArgs over what node-soap parses', () => {
  it.each(Object.keys(STYLES) as (keyof typeof STYLES)[])('reads a %s-style query', async (style) => {
    const xml = STYLES[style]('query', { codeUser: 'me', password: 'k', requestConfig: 'a=b&c=d', poolAlias: '' }, [
      str('publicName', 'TRACE'),
      keys('objectKeys', [
        ['status', 'ERROR'],
        ['search', 'a & <b>'],
      ]),
      int('listSize', 25),
    ]);
    const dispatched = await dispatchWithNodeSoap(xml);
    expect(dispatched.operation).toBe('query');
    expect(normalizeArgs('query', dispatched.args)).toEqual({
      operation: 'query',
      callContext: { codeLang: 'ENG', codeUser: 'me', password: 'k', poolAlias: '', poolId: '', requestConfig: 'a=b&c=d' },
      publicName: 'TRACE',
      objectKeys: [
        { key: 'status', value: 'ERROR' },
        { key: 'search', value: 'a & <b>' },
      ],
      listSize: 25,
      objectXml: '',
      inputXml: '',
    });
  });

  it.each(Object.keys(STYLES) as (keyof typeof STYLES)[])('reads a %s-style one-member array and nil values', async (style) => {
    const xml = STYLES[style]('read', { password: null }, [str('publicName', 'SPAN'), keys('objectKeys', [['id', 'x']])]);
    const call = normalizeArgs('read', (await dispatchWithNodeSoap(xml)).args);
    expect(call.objectKeys).toEqual([{ key: 'id', value: 'x' }]);
    expect(call.callContext.password).toBe('');
  });

  it('keeps XML text in objectXml verbatim (CDATA or escaped)', async () => {
    const param = '<PARAM><FLD NAME="name">a &amp; b ]]&gt;</FLD></PARAM>';
    for (const style of ['php', 'soapui'] as const) {
      const xml = STYLES[style]('save', {}, [str('publicName', 'TRACE'), str('objectXml', param)]);
      expect(normalizeArgs('save', (await dispatchWithNodeSoap(xml)).args).objectXml).toBe(param);
    }
  });
});

describe('shape helpers', () => {
  it('toScalar takes strings, typed {attributes,$value}, numbers and nil; refuses structures', () => {
    expect(toScalar('a', 'p')).toBe('a');
    expect(toScalar({ attributes: { 'xsi:type': 'xsd:string' }, $value: 'b' }, 'p')).toBe('b');
    expect(toScalar({ attributes: { 'xsi:type': 'xsd:string' } }, 'p')).toBe('');
    expect(toScalar(null, 'p')).toBe('');
    expect(toScalar(7, 'p')).toBe('7');
    expect(() => toScalar({ a: '1' }, 'p')).toThrow(SoapFault);
  });

  it('toInt accepts only an xsd:int', () => {
    expect(toInt(' 12 ', 'n')).toBe(12);
    expect(toInt({ attributes: {}, $value: '-3' }, 'n')).toBe(-3);
    expect(toInt(5, 'n')).toBe(5);
    for (const bad of ['', 'x', '1.0', '1e3', '2147483648', null, { a: 1 }]) expect(() => toInt(bad, 'n')).toThrow(/^Part n must be/);
  });

  it('arrayMembers takes members under any name, lone or repeated, skipping nil ones', () => {
    expect(arrayMembers({ attributes: {}, item: { key: 'a' } }, 'k')).toEqual([{ key: 'a' }]);
    expect(arrayMembers({ item: [{ key: 'a' }, null, { key: 'b' }] }, 'k')).toEqual([{ key: 'a' }, { key: 'b' }]);
    expect(arrayMembers({ CSvcParamKeyValue: { key: 'a' }, Item: { key: 'b' } }, 'k')).toHaveLength(2);
    expect(arrayMembers(null, 'k')).toEqual([]);
    expect(arrayMembers('  ', 'k')).toEqual([]);
    expect(() => arrayMembers('text', 'k')).toThrow(/must be an array/);
    expect(() => arrayMembers({ item: 'text' }, 'k')).toThrow(/must be a structure/);
  });

  it('toKeyValues trims keys and drops empty members', () => {
    expect(toKeyValues({ item: [{ key: ' id ', value: ' v ' }, { key: null, value: null }] }, 'k')).toEqual([{ key: 'id', value: ' v ' }]);
  });

  it('faults on a missing required part, tolerates missing optional ones', () => {
    expect(() => normalizeArgs('read', { publicName: 'X' })).toThrow('Missing part callContext in read');
    expect(() => normalizeArgs('query', { callContext: null, publicName: 'X' })).toThrow('Missing part listSize');
    expect(normalizeArgs('run', { callContext: null, publicName: 'HEALTH' }).inputXml).toBe('');
  });
});
