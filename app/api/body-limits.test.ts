// MAX_BODY_BYTES on every route that reads a body (POST /api/traces, /api/otel/v1/traces,
// /api/soap), over real sockets: a chunked body over the limit is refused as too large like
// a declared one, and the refusal reaches a client that is still sending (a zip bomb, a
// large upload) instead of a connection reset.
import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { POST as postOtlp } from '@/app/api/otel/v1/traces/route';
import { POST as postSoap } from '@/app/api/soap/route';
import { POST as postTraces } from '@/app/api/traces/route';
import { useDatabase } from '@/lib/db';
import type { Database } from '@/lib/db/open';
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
  // proxy.ts runs for pages only (test/access/routes.test.ts), which take no body: Next's
  // buffering of a body for the proxy, before anyone is authenticated, stays this small.
  it("keeps Next's body buffering for proxy.ts at 64 KiB, whatever MAX_BODY_BYTES says", async () => {
    expect(nextConfig.experimental?.proxyClientMaxBodySize).toBe(64 * 1024);
    const saved = process.env.MAX_BODY_BYTES;
    process.env.MAX_BODY_BYTES = String(50 * MiB);
    try {
      vi.resetModules();
      const reloaded = (await import('@/next.config')).default;
      expect(reloaded.experimental?.proxyClientMaxBodySize).toBe(64 * 1024);
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
  });
  afterAll(async () => {
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
