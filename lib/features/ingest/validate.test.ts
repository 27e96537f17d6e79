import { describe, expect, it } from 'vitest';
import { FIELD_LIMITS } from '@/lib/core/limits';
import { parseIngestBody, parseIsoDateTime } from './validate';

const iso = (s: string) => parseIsoDateTime(s)?.toISOString() ?? null;

describe('parseIsoDateTime', () => {
  it('reads ISO 8601 date-times with Z, offsets, fractions, or no zone (UTC)', () => {
    expect(iso('2026-01-02T03:04:05Z')).toBe('2026-01-02T03:04:05.000Z');
    expect(iso('2026-01-02T03:04:05.123456Z')).toBe('2026-01-02T03:04:05.123Z');
    expect(iso('2026-01-02T03:04:05+02:00')).toBe('2026-01-02T01:04:05.000Z');
    expect(iso('2026-01-02T03:04:05-0130')).toBe('2026-01-02T04:34:05.000Z');
    expect(iso('2026-01-02T03:04')).toBe('2026-01-02T03:04:00.000Z');
    expect(iso('2026-01-02 03:04:05')).toBe('2026-01-02T03:04:05.000Z');
  });
  it('keeps years below 100 as written and refuses year 0', () => {
    expect(iso('0050-06-01T00:00:00Z')).toBe('0050-06-01T00:00:00.000Z');
    expect(iso('0001-01-01T00:00:00Z')).toBe('0001-01-01T00:00:00.000Z');
    expect(iso('0000-01-01T00:00:00Z')).toBeNull();
  });
  it('refuses impossible dates and times and anything that is not a date-time', () => {
    for (const bad of [
      '2026-02-29T00:00:00Z',
      '2026-02-30T00:00:00Z',
      '2026-13-01T00:00:00Z',
      '2026-01-01T24:00:00Z',
      '2026-01-01T00:60:00Z',
      '2026-01-01',
      'yesterday',
      '2026-01-01T00:00:00+25:00',
      '1700000000',
      '',
    ]) {
      expect(iso(bad), bad).toBeNull();
    }
    expect(iso('2024-02-29T00:00:00Z')).toBe('2024-02-29T00:00:00.000Z');
  });
});

describe('parseIngestBody: payloads proven storable by the text, or walked', () => {
  const limits = { maxBatchTraces: 10, maxChildrenPerTrace: 10 };
  // The text of a one-trace body whose span input is `input` (a JSON text).
  const body = (input: string) =>
    `{"traces":[{"id":"t","name":"n","startedAt":"2026-01-02T03:04:05Z","status":"COMPLETED","tags":[],` +
    `"decisionPoints":[],"events":[],"spans":[{"id":"s","name":"n","type":"CUSTOM","status":"COMPLETED",` +
    `"startedAt":"2026-01-02T03:04:05Z","input":${input}}]}]}`;
  const unstorable = /traces\[0\]\.spans\[0\]\.input contains a NUL character or an unpaired surrogate/;

  it('accepts plain text, raw emoji and escaped surrogate pairs', () => {
    for (const input of ['{"a":"plain"}', '"🌍"', '"\\ud83c\\udf0d"', '{"\\ud83c\\udf0d":1}', '"\\\\u0000 is text"']) {
      expect(parseIngestBody(body(input), limits).traces[0].spans[0].input, input).toEqual(JSON.parse(input));
    }
  });

  it('refuses NUL and unpaired surrogates, escaped or raw, in values and keys', () => {
    for (const input of ['"a\\u0000"', '"\\ud800"', '"x\\udc00"', '{"\\u0000":1}', '"\ud800"', '["\udc00"]', '"\\\\\\ud800"']) {
      expect(() => parseIngestBody(body(input), limits), input).toThrow(unstorable);
    }
  });

  it('refuses a payload nested deeper than the limit, and accepts one at it', () => {
    const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
    expect(parseIngestBody(body(nested(FIELD_LIMITS.jsonDepth)), limits).traces).toHaveLength(1);
    expect(() => parseIngestBody(body(nested(FIELD_LIMITS.jsonDepth + 1)), limits)).toThrow(
      `traces[0].spans[0].input is nested deeper than ${FIELD_LIMITS.jsonDepth} levels`,
    );
  });
});

describe('parseIngestBody: userId and model calls', () => {
  const limits = { maxBatchTraces: 10, maxChildrenPerTrace: 10 };
  const body = (trace: Record<string, unknown>, span: Record<string, unknown> = {}) =>
    JSON.stringify({
      traces: [
        {
          id: 't',
          name: 'n',
          startedAt: '2026-01-02T03:04:05Z',
          status: 'COMPLETED',
          tags: [],
          decisionPoints: [],
          events: [],
          spans: [{ id: 's', name: 'n', type: 'LLM_CALL', status: 'COMPLETED', startedAt: '2026-01-02T03:04:05Z', ...span }],
          ...trace,
        },
      ],
    });

  it('takes an optional userId, with the rules of ids', () => {
    expect(parseIngestBody(body({ userId: 'u-1' }), limits).traces[0].userId).toBe('u-1');
    expect(parseIngestBody(body({}), limits).traces[0].userId).toBeNull();
    expect(parseIngestBody(body({ userId: null }), limits).traces[0].userId).toBeNull();
    expect(() => parseIngestBody(body({ userId: 42 }), limits)).toThrow('traces[0].userId must be a string or null');
    expect(() => parseIngestBody(body({ userId: 'x'.repeat(257) }), limits)).toThrow('traces[0].userId must be at most 256 characters');
    expect(() => parseIngestBody(body({ userId: 'a\nb' }), limits)).toThrow('traces[0].userId must not contain control characters');
  });

  it("reads an LLM_CALL span's model call from its metadata, and no other span's", () => {
    const metadata = { model: 'gpt-4o', usage: { input_tokens: 3, output_tokens: 2 } };
    expect(parseIngestBody(body({}, { metadata }), limits).traces[0].spans[0].usage).toEqual({
      model: 'gpt-4o',
      inputTokens: 3,
      outputTokens: 2,
      cacheReadTokens: undefined,
      cacheWriteTokens: undefined,
      inputIncludesCache: true,
    });
    expect(parseIngestBody(body({}, { metadata, type: 'TOOL_CALL' }), limits).traces[0].spans[0].usage).toBeNull();
  });
});
