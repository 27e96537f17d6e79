import { JsonLogsSerializer, JsonTraceSerializer, ProtobufLogsSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { describe, expect, it } from 'vitest';
import { GRPC_CODE_BY_HTTP_STATUS, exportLogsResponse, exportResponse, grpcCodeForHttpStatus, statusBody } from './encode';

const bytes = (body: Uint8Array | string) => {
  expect(body).toBeInstanceOf(Uint8Array);
  return body as Uint8Array;
};

describe('exportLogsResponse', () => {
  it('is empty without rejections, and carries rejected_log_records as the OTLP log exporters read it back', () => {
    expect(bytes(exportLogsResponse('protobuf').body)).toHaveLength(0);
    expect(exportLogsResponse('json').body).toBe('{}');
    const partial = { rejectedLogRecords: 2, errorMessage: '2 log records rejected: 2 log record names no span (trace_id and span_id)' };
    expect(ProtobufLogsSerializer.deserializeResponse(bytes(exportLogsResponse('protobuf', partial).body))).toEqual({ partialSuccess: partial });
    const json = exportLogsResponse('json', partial).body as string;
    expect(JsonLogsSerializer.deserializeResponse(new TextEncoder().encode(json))).toEqual({
      partialSuccess: { rejectedLogRecords: '2', errorMessage: partial.errorMessage },
    });
  });
});

describe('exportResponse', () => {
  it('is the empty message when nothing was rejected', () => {
    for (const partial of [undefined, { rejectedSpans: 0, errorMessage: '' }]) {
      const proto = exportResponse('protobuf', partial);
      expect(proto.contentType).toBe('application/x-protobuf');
      expect(bytes(proto.body)).toHaveLength(0);
      expect(exportResponse('json', partial)).toEqual({ body: '{}', contentType: 'application/json' });
    }
  });

  it('carries partial_success as the OTLP exporters read it back', () => {
    const partial = { rejectedSpans: 3, errorMessage: '3 spans rejected: 3 invalid trace id (all zeros)' };
    const proto = exportResponse('protobuf', partial);
    expect(ProtobufTraceSerializer.deserializeResponse(bytes(proto.body))).toEqual({ partialSuccess: partial });
    const json = exportResponse('json', partial);
    expect(json.contentType).toBe('application/json');
    expect(json.body).toBe(
      '{"partialSuccess":{"rejectedSpans":"3","errorMessage":"3 spans rejected: 3 invalid trace id (all zeros)"}}',
    );
    expect(JsonTraceSerializer.deserializeResponse(new TextEncoder().encode(json.body as string))).toEqual({
      partialSuccess: { rejectedSpans: '3', errorMessage: partial.errorMessage },
    });
  });

  it('sends a message without rejected spans as a warning, leaving the zero count out', () => {
    const proto = exportResponse('protobuf', { rejectedSpans: 0, errorMessage: 'clock skew' });
    expect(ProtobufTraceSerializer.deserializeResponse(bytes(proto.body))).toEqual({ partialSuccess: { errorMessage: 'clock skew' } });
    expect(exportResponse('json', { rejectedSpans: 0, errorMessage: 'clock skew' }).body).toBe('{"partialSuccess":{"errorMessage":"clock skew"}}');
  });

  it('writes valid UTF-8 even for a message holding a lone surrogate', () => {
    const proto = bytes(exportResponse('protobuf', { rejectedSpans: 1, errorMessage: 'bad name "\uD800"' }).body);
    // 0a <len> 08 01 12 <len> <message>
    expect(Array.from(proto.subarray(2, 5))).toEqual([0x08, 0x01, 0x12]);
    expect(new TextDecoder('utf-8', { fatal: true }).decode(proto.subarray(6))).toBe('bad name "\uFFFD"');
  });
});

describe('statusBody', () => {
  it('is a google.rpc.Status: code 1 (varint), message 2 (bytes)', () => {
    const proto = statusBody('protobuf', 3, 'bad');
    expect(proto.contentType).toBe('application/x-protobuf');
    expect(Array.from(bytes(proto.body))).toEqual([0x08, 0x03, 0x12, 0x03, 0x62, 0x61, 0x64]);
    expect(statusBody('json', 3, 'Invalid OTLP JSON body: not valid JSON')).toEqual({
      body: '{"code":3,"message":"Invalid OTLP JSON body: not valid JSON"}',
      contentType: 'application/json',
    });
  });

  it('encodes a longer message with a multi-byte length and non-ASCII text', () => {
    const message = 'é'.repeat(100); // 200 bytes: the length takes two varint bytes
    const body = bytes(statusBody('protobuf', 16, message).body);
    expect(Array.from(body.subarray(0, 5))).toEqual([0x08, 0x10, 0x12, 0xc8, 0x01]);
    expect(Buffer.from(body.subarray(5)).toString('utf8')).toBe(message);
  });
});

describe('grpcCodeForHttpStatus', () => {
  it('maps the statuses the endpoint answers with to google.rpc.Code values', () => {
    expect([400, 401, 403, 413, 415, 429, 500, 503].map(grpcCodeForHttpStatus)).toEqual([3, 16, 7, 8, 3, 8, 13, 14]);
    expect(grpcCodeForHttpStatus(418)).toBe(2);
    expect(Object.values(GRPC_CODE_BY_HTTP_STATUS).every((code) => Number.isInteger(code) && code > 0 && code <= 16)).toBe(true);
  });
});
