// Route handlers behind a real node:http server, and a client that streams its body, for
// tests that need real sockets: chunked uploads, answers sent while the client is still
// sending, connection resets.
import { Agent, createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type RouteHandler = (req: Request) => Promise<Response>;

export interface RouteServer {
  /** http://127.0.0.1:<port> */
  origin: string;
  close(): Promise<void>;
}

/** What undici needs to stream a request body; not in TypeScript's DOM RequestInit yet. */
type StreamingRequestInit = RequestInit & { duplex: 'half' };

/** node:http -> web Request (body streamed) -> the handler for the path -> node:http response. */
export async function serveRoutes(routes: Record<string, RouteHandler>): Promise<RouteServer> {
  const server: Server = createServer((req, res) => {
    const handle = async () => {
      const handler = routes[new URL(req.url ?? '/', 'http://x').pathname];
      if (!handler) {
        res.writeHead(404).end();
        return;
      }
      const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
      }
      const init: StreamingRequestInit = {
        method: req.method,
        headers,
        // As Next passes it: the IncomingMessage as an async iterable.
        body: hasBody ? (req as unknown as ReadableStream<Uint8Array>) : null,
        duplex: 'half',
      };
      const response = await handler(new Request(`http://${req.headers.host}${req.url}`, init));
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    };
    handle().catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(err));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

export interface Sent {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** A socket error either side saw (ECONNRESET, EPIPE), if any. */
  error?: NodeJS.ErrnoException;
  /** Whether the client got to write its whole body. */
  wroteAll: boolean;
}

/**
 * POSTs `chunks` one write at a time, yielding to the event loop between writes, as a
 * slow exporter would: chunked unless headers give a Content-Length, on a keep-alive
 * connection as exporters use (or with `Connection: close` when connection is 'close').
 * Resolves once the answer has been read and the upload ended, or on the first error,
 * with what it got.
 */
export function sendChunks(
  url: string,
  headers: Record<string, string>,
  chunks: Iterable<Uint8Array>,
  connection: 'keep-alive' | 'close' = 'keep-alive',
): Promise<Sent> {
  const agent = connection === 'keep-alive' ? new Agent({ keepAlive: true, maxSockets: 1 }) : false;
  return new Promise<Sent>((resolve) => {
    let response: IncomingMessage | undefined;
    const body: Buffer[] = [];
    let wroteAll = false;
    let read = false;
    let settled = false;
    const settle = (error?: NodeJS.ErrnoException) => {
      if (settled) return;
      if (!error && !(read && wroteAll)) return;
      settled = true;
      if (agent) agent.destroy();
      resolve({ status: response?.statusCode ?? 0, headers: response?.headers ?? {}, body: Buffer.concat(body), error, wroteAll });
    };
    const req = httpRequest(url, { method: 'POST', headers, agent }, (res) => {
      response = res;
      res.on('data', (chunk: Buffer) => body.push(chunk));
      res.on('end', () => {
        read = true;
        settle();
      });
      res.on('error', settle);
    });
    req.on('error', settle);
    void (async () => {
      for (const chunk of chunks) {
        if (settled || req.destroyed) return;
        await new Promise<void>((done) => req.write(chunk, () => done()));
        await new Promise((r) => setImmediate(r));
      }
      req.end(() => {
        wroteAll = true;
        settle();
      });
    })();
  });
}
