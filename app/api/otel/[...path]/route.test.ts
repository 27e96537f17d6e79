// Paths under /api/otel/ that no route serves: what an exporter given OTEL_EXPORTER_OTLP_ENDPOINT
// sends for metrics gets a 404 google.rpc.Status in its own encoding, not an HTML page.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeStatus } from '@/test/support/otlp-status';
import * as route from './route';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
const hint = '(this server accepts OTLP traces at /api/otel/v1/traces and logs at /api/otel/v1/logs)';

async function call(method: (typeof METHODS)[number], url: string, contentType?: string) {
  const headers: Record<string, string> = contentType ? { 'content-type': contentType } : {};
  const hasBody = method !== 'GET' && method !== 'HEAD';
  const res = await route[method](new Request(url, { method, headers, body: hasBody ? new Uint8Array([0x0a, 0x00]) : null }));
  return { res, status: decodeStatus(res.headers.get('content-type'), new Uint8Array(await res.arrayBuffer())) };
}

describe('ANY /api/otel/[...path]', () => {
  it('answers 404 NOT_FOUND as protobuf to a protobuf request (OTLP metrics, profiles)', async () => {
    for (const p of ['/api/otel/v1/metrics', '/api/otel/v1development/profiles']) {
      const { res, status } = await call('POST', `http://test${p}`, 'application/x-protobuf');
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toBe('application/x-protobuf');
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(status).toEqual({ code: 5, message: `Not found: ${p} ${hint}` });
    }
  });

  it('answers as JSON to a JSON request, and to one in neither encoding', async () => {
    for (const type of ['application/json', 'application/json; charset=utf-8', 'text/plain', undefined]) {
      const { res, status } = await call('POST', 'http://test/api/otel/v1/metrics', type);
      expect(res.status, type).toBe(404);
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(status).toEqual({ code: 5, message: `Not found: /api/otel/v1/metrics ${hint}` });
    }
  });

  it('answers every method, with the path as asked (query left out)', async () => {
    for (const method of METHODS) {
      const { res, status } = await call(method, 'http://test/api/otel/v2/anything/else?x=1', 'application/x-protobuf');
      expect(res.status, method).toBe(404);
      expect(status.message).toBe(`Not found: /api/otel/v2/anything/else ${hint}`);
    }
  });

  it('sits beside the traces and logs routes, which win over it as the more specific ones', () => {
    const otel = path.join(process.cwd(), 'app/api/otel');
    expect(readdirSync(otel).sort()).toEqual(['[...path]', 'v1']);
    expect(readdirSync(path.join(otel, 'v1/traces'))).toContain('route.ts');
    expect(readdirSync(path.join(otel, 'v1/logs'))).toContain('route.ts');
  });
});
