import { describe, expect, it } from 'vitest';
import { AppError } from '@/lib/core/errors';
import { PUBLIC_OBJECTS, checkKeys, describeAll, findObject, operationsOf } from './registry';
import { failure, toSoapResult } from './result';

describe('public names', () => {
  it('are TRACE, SPAN, DECISION, EVENT, HEALTH, TRACE_STATS, DECISION_STATS, SCORE with the profile operations', () => {
    expect(Object.fromEntries(PUBLIC_OBJECTS.map((o) => [o.name, operationsOf(o)]))).toEqual({
      TRACE: ['getDescription', 'read', 'query', 'save'],
      SPAN: ['getDescription', 'read', 'query'],
      DECISION: ['getDescription', 'read', 'query'],
      EVENT: ['getDescription', 'read', 'query'],
      HEALTH: ['getDescription', 'run'],
      TRACE_STATS: ['getDescription', 'run'],
      DECISION_STATS: ['getDescription', 'run'],
      SCORE: ['getDescription', 'run'],
    });
    expect(describeAll().json).toMatchObject({ publicNames: expect.arrayContaining([{ name: 'HEALTH', operations: ['getDescription', 'run'] }]) });
  });

  it('are found whatever the case and an unknown one is named', () => {
    expect(findObject(' trace ').name).toBe('TRACE');
    expect(() => findObject('ORDERS')).toThrow(/Unknown public name "ORDERS"; available: TRACE, SPAN/);
  });

  it('check keys: unknown and missing required ones are named', () => {
    const spec = { names: ['traceId', 'id'], required: ['traceId', 'id'] };
    expect(checkKeys('SPAN', [{ key: 'traceId', value: 't' }, { key: 'id', value: 's' }], spec, 'key')).toEqual({ traceId: 't', id: 's' });
    expect(() => checkKeys('SPAN', [{ key: 'x', value: '1' }], spec, 'key')).toThrow('Unknown key "x" for SPAN; keys are: traceId, id');
    expect(() => checkKeys('SPAN', [{ key: 'traceId', value: 't' }, { key: 'id', value: ' ' }], spec, 'key')).toThrow('Missing required key "id" for SPAN');
  });
});

describe('toSoapResult', () => {
  it('maps any AppError to status 0, empty resultXml and one type-3 message, after earlier warnings', () => {
    const warn = { type: '2' as const, message: 'w' };
    expect(toSoapResult(new AppError('CONFLICT', 'Duplicate trace ID detected'), [warn])).toEqual({
      status: 0,
      resultXml: '',
      messages: [warn, { type: '3', message: 'Duplicate trace ID detected' }],
      technicalInfos: [],
    });
    for (const code of ['VALIDATION', 'NOT_FOUND', 'UNAUTHENTICATED', 'UNAVAILABLE', 'PAYLOAD_TOO_LARGE'] as const) {
      expect(toSoapResult(new AppError(code, 'm')).status).toBe(0);
    }
    expect(failure('x').messages).toEqual([{ type: '3', message: 'x' }]);
  });

  it('rethrows anything else (it becomes a Server fault)', () => {
    expect(() => toSoapResult(new TypeError('boom'))).toThrow('boom');
  });
});
