// MAX_BODY_BYTES on every route that reads a body (POST /api/traces, /api/otel/v1/traces,
// /api/soap), over real sockets: a chunked body over the limit is refused as too large like
// a declared one, also after Next's own buffering for proxy.ts, and the refusal reaches a
// client that is still sending (a zip bomb, a large upload) instead of a connection reset.
import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { POST as postOtlp } from '@/app/api/otel/v1/traces/route';
import { POST as postSoap } from '@/app/api/soap/route';
import { POST as postTraces } from '@/app/api/traces/route';
import { useDatabase } from '@/lib/db';
import { getLimits } from '@/lib/env';
import type { Database } from '@/lib/storage/open';
import nextConfig from '@/next.config';
import { testDatabases, truncateAll } from '@/test/support/databases';
import { makeTrace } from '@/test/support/fixtures';
import { decodeStatus } from '@/test/support/otlp-status';
import { serveRoutes, sendChunks, type RouteServer, type Sent } from '@/test/support/route-server';
import { parseFault, phpEnvelope, str } from '@/test/support/soap';

const MiB = 1024 * 1024;
const TOO_LARGE = 'Request body too large';
const AUTH = { authorization: 'Bearer body-limits-key' };

const routes = {
  '/api/traces': (req: Request) => postTraces(req, undefined),
  '/api/otel/v1/traces': postOtlp,
  '/api/soap': postSoap,
};

/** `bytes` in 64 KiB pieces, one write each. */
function pieces(bytes: Uint8Array, size = 64 * 1024): Uint8Array[] {
  return Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => bytes.subarray(i * size, (i + 1) * size));
}

/** A JSON ingest body of about `bytes` bytes (one trace, padded metadata). */
const tracesBody = (bytes: number) => Buffer.from(JSON.stringify({ traces: [makeTrace({ metadata: { pad: 'x'.repeat(bytes) } })] }));

/** A SOAP save envelope of about `bytes` bytes. */
const soapBody = (bytes: number) =>
  Buffer.from(phpEnvelope('save', { codeUser: 'u', password: 'p' }, [str('publicName', 'TRACE'), str('objectXml', 'x'.repeat(bytes))]));

function expectJsonTooLarge(sent: Sent) {
  expect(sent.error).toBeUndefined();
  expect(sent.status).toBe(413);
  expect(JSON.parse(sent.body.toString('utf8'))).toEqual({ error: TOO_LARGE });
}

function expectOtlpTooLarge(sent: Sent, encoding: 'protobuf' | 'json') {
  expect(sent.error).toBeUndefined();
  expect(sent.status).toBe(413);
  expect(sent.headers['content-type']).toBe(encoding === 'json' ? 'application/json' : 'application/x-protobuf');
  expect(decodeStatus(sent.headers['content-type'], sent.body)).toEqual({ code: 8, message: TOO_LARGE });
}

function expectSoapTooLarge(sent: Sent) {
  expect(sent.error).toBeUndefined();
  expect(sent.status).toBe(500);
  expect(parseFault(sent.body.toString('utf8'))).toMatchObject({ faultcode: { local: 'Client' }, faultstring: TOO_LARGE });
}

describe('next.config.ts', () => {
  it('lets 1 MiB past MAX_BODY_BYTES through Next\'s proxy buffering, so the route sees the body is over', async () => {
    expect(nextConfig.experimental?.proxyClientMaxBodySize).toBe(getLimits().maxBodyBytes + MiB);
    const saved = process.env.MAX_BODY_BYTES;
    process.env.MAX_BODY_BYTES = '2048';
    try {
      vi.resetModules();
      const reloaded = (await import('@/next.config')).default;
      expect(reloaded.experimental?.proxyClientMaxBodySize).toBe(2048 + MiB);
    } finally {
      process.env.MAX_BODY_BYTES = saved;
      vi.resetModules();
    }
  });
});

describe.each(testDatabases())('request bodies over MAX_BODY_BYTES, over real sockets, on $name', ({ open }) => {
  let db: Database;
  const savedEnv = { ...process.env };

  beforeAll(async () => {
    db = await open();
    vi.spyOn(console, 'warn').mockImplementation(() => undefined); // Next's "Request body exceeded" notice
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await db.close();
  });
  beforeEach(async () => {
    useDatabase(db);
    delete process.env.API_KEYS;
    delete process.env.MAX_BODY_BYTES;
    await truncateAll(db);
  });
  afterEach(async () => {
    process.env = { ...savedEnv };
    expect(await db.prisma.trace.count()).toBe(0);
  });

  describe('as `next start` runs them: the body buffered by Next for proxy.ts first (default 10 MiB limit)', () => {
    let server: RouteServer;
    beforeAll(async () => {
      const sizeLimit = nextConfig.experimental?.proxyClientMaxBodySize;
      server = await serveRoutes(routes, { nextProxyBuffering: { sizeLimit: sizeLimit === undefined ? undefined : Number(sizeLimit) } });
    });
    afterAll(() => server.close());

    const over = () => getLimits().maxBodyBytes + 64 * 1024;

    it('POST /api/traces: 413 chunked as with Content-Length, not 400 invalid JSON', async () => {
      const body = tracesBody(over());
      const json = { ...AUTH, 'content-type': 'application/json' };
      expectJsonTooLarge(await sendChunks(`${server.origin}/api/traces`, json, pieces(body)));
      expectJsonTooLarge(await sendChunks(`${server.origin}/api/traces`, { ...json, 'content-length': String(body.length) }, pieces(body)));
    });

    it('POST /api/otel/v1/traces: 413 with a Status, chunked as with Content-Length', async () => {
      const body = Buffer.alloc(over(), 0x0a); // the size is refused before any decoding
      const proto = { ...AUTH, 'content-type': 'application/x-protobuf' };
      expectOtlpTooLarge(await sendChunks(`${server.origin}/api/otel/v1/traces`, proto, pieces(body)), 'protobuf');
      const declared = { ...proto, 'content-length': String(body.length) };
      expectOtlpTooLarge(await sendChunks(`${server.origin}/api/otel/v1/traces`, declared, pieces(body)), 'protobuf');
    });

    it('POST /api/soap: the too-large Client fault, chunked as with Content-Length', async () => {
      const body = soapBody(over());
      const xml = { 'content-type': 'text/xml; charset=utf-8' };
      expectSoapTooLarge(await sendChunks(`${server.origin}/api/soap`, xml, pieces(body)));
      expectSoapTooLarge(await sendChunks(`${server.origin}/api/soap`, { ...xml, 'content-length': String(body.length) }, pieces(body)));
    });
  });

  describe.each(['keep-alive', 'close'] as const)('on a bare node:http server, Connection: %s: the answer reaches a client still sending, no reset', (connection) => {
    let server: RouteServer;
    beforeAll(async () => {
      server = await serveRoutes(routes);
    });
    afterAll(() => server.close());

    it('OTLP: a gzip bomb (1 MiB sent, 1 GiB inflated) sent one member at a time, in either encoding', async () => {
      process.env.MAX_BODY_BYTES = String(4 * MiB);
      const member = gzipSync(Buffer.alloc(MiB)); // ~1 KiB inflating to 1 MiB; members may be concatenated
      for (const encoding of ['protobuf', 'json'] as const) {
        const headers = {
          ...AUTH,
          'content-type': encoding === 'json' ? 'application/json' : 'application/x-protobuf',
          'content-encoding': 'gzip',
        };
        const sent = await sendChunks(`${server.origin}/api/otel/v1/traces`, headers, Array.from({ length: 1024 }, () => member), connection);
        expectOtlpTooLarge(sent, encoding);
        expect(sent.wroteAll).toBe(true);
      }
    });

    it('OTLP: a body over the limit, declared or chunked, sent in 64 KiB writes', async () => {
      process.env.MAX_BODY_BYTES = String(MiB);
      const body = Buffer.alloc(4 * MiB, 0x0a);
      const proto = { ...AUTH, 'content-type': 'application/x-protobuf' };
      for (const headers of [proto, { ...proto, 'content-length': String(body.length) }]) {
        const sent = await sendChunks(`${server.origin}/api/otel/v1/traces`, headers, pieces(body), connection);
        expectOtlpTooLarge(sent, 'protobuf');
        expect(sent.wroteAll).toBe(true);
      }
    });

    it('POST /api/traces and POST /api/soap: the same, declared or chunked', async () => {
      process.env.MAX_BODY_BYTES = String(MiB);
      const json = tracesBody(4 * MiB);
      const xml = soapBody(4 * MiB);
      for (const declared of [false, true]) {
        const length = (b: Buffer): Record<string, string> => (declared ? { 'content-length': String(b.length) } : {});
        const traces = await sendChunks(`${server.origin}/api/traces`, { ...AUTH, 'content-type': 'application/json', ...length(json) }, pieces(json), connection);
        expectJsonTooLarge(traces);
        expect(traces.wroteAll).toBe(true);
        const soap = await sendChunks(`${server.origin}/api/soap`, { 'content-type': 'text/xml; charset=utf-8', ...length(xml) }, pieces(xml), connection);
        expectSoapTooLarge(soap);
        expect(soap.wroteAll).toBe(true);
      }
    });
  });
});
