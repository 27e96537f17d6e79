// Every rule of a score as a client sends it, with its exact message.
import { describe, expect, it } from 'vitest';
import { parseScoresBody, validateScore, validateScoresBody } from './validate';

const ok = { traceId: 't1', name: 'quality', value: 1 };
const one = (score: Record<string, unknown>) => () => validateScoresBody({ scores: [ok, score] });

describe('POST /api/scores bodies', () => {
  it.each([
    ['not JSON', () => parseScoresBody('{'), 'Invalid JSON in request body'],
    ['no scores array', () => validateScoresBody({ score: [] }), 'Must contain a scores array'],
    ['an empty array', () => validateScoresBody({ scores: [] }), 'Scores array cannot be empty'],
    ['1,001 scores', () => validateScoresBody({ scores: Array.from({ length: 1001 }, () => ok) }), 'Too many scores in one request: 1001; at most 1000 are allowed'],
    ['a score that is no object', one(null as unknown as Record<string, unknown>), 'scores[1] must be an object'],
    ['no target', one({ name: 'n', value: 1 }), 'scores[1].traceId is required (or sessionId alone, for a session\'s score)'],
    ['spanId and decisionPointId', one({ traceId: 't', spanId: 's', decisionPointId: 'd', name: 'n', value: 1 }), 'scores[1].decisionPointId cannot be given with spanId: a score has one target'],
    ['traceId and sessionId', one({ traceId: 't', sessionId: 's', name: 'n', value: 1 }), 'scores[1].sessionId cannot be given with traceId: a score has one target (a session\'s score has no traceId)'],
    ['a span without its trace', one({ sessionId: 's', spanId: 'x', name: 'n', value: 1 }), 'scores[1].spanId needs traceId: a span is scored within its trace'],
    ['a decision without its trace', one({ sessionId: 's', decisionPointId: 'x', name: 'n', value: 1 }), 'scores[1].decisionPointId needs traceId: a decision point is scored within its trace'],
    ['an empty traceId', one({ traceId: '', name: 'n', value: 1 }), 'scores[1].traceId must be a non-empty string'],
    ['a long id', one({ id: 'i'.repeat(257), traceId: 't', name: 'n', value: 1 }), 'scores[1].id must be at most 256 characters'],
    ['a control character in an id', one({ id: 'a\nb', traceId: 't', name: 'n', value: 1 }), 'scores[1].id must not contain control characters'],
    ['no name', one({ traceId: 't', value: 1 }), 'scores[1].name is required and must be a non-empty string'],
    ['a name of 201 characters', one({ traceId: 't', name: 'n'.repeat(201), value: 1 }), 'scores[1].name must be at most 200 characters'],
    ['no value', one({ traceId: 't', name: 'n' }), 'scores[1].value is required and must be a number, a string or a boolean'],
    ['an object value', one({ traceId: 't', name: 'n', value: { a: 1 } }), 'scores[1].value is required and must be a number, a string or a boolean'],
    ['a category of 501 characters', one({ traceId: 't', name: 'n', value: 'c'.repeat(501) }), 'scores[1].value must be at most 500 characters'],
    ['an unknown dataType', one({ traceId: 't', name: 'n', value: 1, dataType: 'TEXT' }), 'scores[1].dataType is invalid ("TEXT"): must be one of NUMERIC, CATEGORICAL, BOOLEAN'],
    ['BOOLEAN with a number', one({ traceId: 't', name: 'n', value: 1, dataType: 'BOOLEAN' }), 'scores[1].value must be a boolean for dataType BOOLEAN'],
    ['NUMERIC with a string', one({ traceId: 't', name: 'n', value: '1', dataType: 'NUMERIC' }), 'scores[1].value must be a number for dataType NUMERIC'],
    ['CATEGORICAL with a boolean', one({ traceId: 't', name: 'n', value: true, dataType: 'CATEGORICAL' }), 'scores[1].value must be a string for dataType CATEGORICAL'],
    ['a comment of 10,001 characters', one({ traceId: 't', name: 'n', value: 1, comment: 'c'.repeat(10_001) }), 'scores[1].comment must be at most 10000 characters'],
    ['a comment that is no string', one({ traceId: 't', name: 'n', value: 1, comment: 5 }), 'scores[1].comment must be a string or null'],
    ['metadata over 64 KB', one({ traceId: 't', name: 'n', value: 1, metadata: { x: 'm'.repeat(65_536) } }), 'scores[1].metadata must be at most 65536 bytes as JSON'],
    ['metadata nested 6,000 deep', one({ traceId: 't', name: 'n', value: 1, metadata: JSON.parse('['.repeat(6_000) + ']'.repeat(6_000)) }), 'scores[1].metadata is nested deeper than 256 levels'],
    ['a NUL in metadata', one({ traceId: 't', name: 'n', value: 1, metadata: { x: 'a\u0000b' } }), 'scores[1].metadata contains a NUL character or an unpaired surrogate, which cannot be stored'],
    ['a NUL in the name', one({ traceId: 't', name: 'a\u0000', value: 1 }), 'scores[1].name contains a NUL character or an unpaired surrogate, which cannot be stored'],
    ['an id twice', () => validateScoresBody({ scores: [{ ...ok, id: 'x' }, { ...ok, id: 'x' }] }), 'scores[1].id "x" appears more than once in this request'],
  ])('%s: %s', (_name, run, message) => {
    expect(run).toThrow(message);
  });

  it('takes the data type from the value, and accepts the limits exactly', () => {
    const [n, c, b] = validateScoresBody({
      scores: [
        { traceId: 't', name: 'n'.repeat(200), value: 0.5, comment: 'c'.repeat(10_000), metadata: { x: 'm'.repeat(65_000) } },
        { sessionId: 's', name: 'n', value: 'c'.repeat(500) },
        { traceId: 't', decisionPointId: 'd', name: 'decision.correct', value: false, dataType: 'BOOLEAN' },
      ],
    });
    expect([n.dataType, c.dataType, b.dataType]).toEqual(['NUMERIC', 'CATEGORICAL', 'BOOLEAN']);
    expect([n.target, c.target, b.target]).toEqual([
      { kind: 'trace', traceId: 't' },
      { kind: 'session', sessionId: 's' },
      { kind: 'decision', traceId: 't', decisionPointId: 'd' },
    ]);
    expect(b.explicitType).toBe(true);
  });

  it('inside a JSON batch the trace is implied and a score cannot target a session or another trace', () => {
    expect(validateScore({ spanId: 's', name: 'n', value: 1 }, 'traces[0].scores[0]', 't1').target).toEqual({ kind: 'span', traceId: 't1', spanId: 's' });
    expect(() => validateScore({ traceId: 't2', name: 'n', value: 1 }, 'traces[0].scores[0]', 't1')).toThrow(
      'traces[0].scores[0].traceId must be this trace\'s id ("t1") or absent',
    );
    expect(() => validateScore({ sessionId: 's', name: 'n', value: 1 }, 'traces[0].scores[0]', 't1')).toThrow(
      'traces[0].scores[0].sessionId cannot be given here: a trace\'s scores target the trace, a span or a decision point',
    );
  });
});
