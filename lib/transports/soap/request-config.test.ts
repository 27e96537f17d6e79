import { describe, expect, it } from 'vitest';
import { parseRequestConfig } from './request-config';

describe('parseRequestConfig', () => {
  it('reads the three known switches, trimming, in any case, ignoring unknown keys', () => {
    expect(parseRequestConfig(' adxwss.optreturn = JSON & adxwss.beautify=true&adxwss.trace.on=on&adxwss.trace.size=16384 ')).toEqual({
      json: true,
      beautify: true,
      trace: true,
    });
    expect(parseRequestConfig('ADXWSS.OPTRETURN=json')).toMatchObject({ json: true });
  });

  it('defaults everything off, including for XML output and junk', () => {
    expect(parseRequestConfig('')).toEqual({ json: false, beautify: false, trace: false });
    expect(parseRequestConfig(undefined)).toEqual({ json: false, beautify: false, trace: false });
    expect(parseRequestConfig('adxwss.optreturn=XML&adxwss.beautify=false&adxwss.trace.on=off&garbage&=x')).toEqual({
      json: false,
      beautify: false,
      trace: false,
    });
  });

  it('accepts the value still wrapped in CDATA, escaped ampersands and line breaks', () => {
    expect(parseRequestConfig('<![CDATA[adxwss.optreturn=JSON&amp;adxwss.trace.on=on]]>')).toEqual({ json: true, beautify: false, trace: true });
    expect(parseRequestConfig('adxwss.beautify=true\r\nadxwss.optreturn=JSON')).toMatchObject({ json: true, beautify: true });
  });
});
