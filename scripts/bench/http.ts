// A lean keep-alive HTTP client and a closed-loop load runner: `clients` workers each
// send a request, wait for the whole response, and send the next. Every run is bounded
// both in requests and in time.
import http from 'node:http';

export interface HttpResult {
  status: number;
  body: Buffer;
  ms: number;
}

export class HttpClient {
  private readonly agent: http.Agent;

  constructor(
    readonly baseUrl: string,
    maxSockets = 64,
    /** Sent with every request unless overridden (the bench's API key: reads need one too since access control). */
    private readonly defaultHeaders: Record<string, string> = {},
  ) {
    this.agent = new http.Agent({ keepAlive: true, maxSockets });
  }

  request(method: string, path: string, options: { body?: Buffer | string; headers?: Record<string, string>; timeoutMs?: number } = {}): Promise<HttpResult> {
    return this.attempt(method, path, options).catch((err: Error & { code?: string; reusedSocket?: boolean }) => {
      // A keep-alive socket the server closed while idle (its keepAliveTimeout, 5 s) fails
      // on first use before the request reached the server: retry once on a fresh socket,
      // as Node's documentation advises. Anything else is a real error.
      if (err.reusedSocket && (err.code === 'ECONNRESET' || err.code === 'EPIPE')) return this.attempt(method, path, options);
      throw err;
    });
  }

  private attempt(method: string, path: string, options: { body?: Buffer | string; headers?: Record<string, string>; timeoutMs?: number }): Promise<HttpResult> {
    const url = new URL(path, this.baseUrl);
    const started = performance.now();
    return new Promise((resolve, reject) => {
      let responded = false;
      const req = http.request(
        url,
        {
          method,
          agent: this.agent,
          headers: {
            ...(options.body !== undefined ? { 'content-length': String(Buffer.byteLength(options.body)) } : {}),
            ...this.defaultHeaders,
            ...options.headers,
          },
          timeout: options.timeoutMs ?? 120_000,
        },
        (res) => {
          responded = true;
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), ms: performance.now() - started }));
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error(`timeout after ${options.timeoutMs ?? 120_000} ms: ${method} ${path}`)));
      req.on('error', (err: Error & { reusedSocket?: boolean }) => {
        if (!responded) err.reusedSocket = req.reusedSocket;
        reject(err);
      });
      req.end(options.body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/** One request of a scenario: returns records handled (ingest) or 0, throws or returns false on failure. */
export type Task = (worker: number, seq: number) => Promise<{ ok: boolean; ms: number; records?: number; error?: string }>;

export interface RunOptions {
  clients: number;
  /** Requests measured, across all clients (warm-up not included). */
  maxRequests: number;
  /** Wall-clock bound of the measured part. */
  maxMs: number;
  /** Requests per client sent before measuring (JIT, caches, connection set-up). */
  warmupPerClient?: number;
  /** Stop early once this many errors happened. */
  maxErrors?: number;
  /** Called when the warm-up is over and the measured part starts. */
  onMeasureStart?: () => void;
}

export interface RunResult {
  latencies: number[];
  errors: number;
  records: number;
  wallMs: number;
  firstError?: string;
}

export async function runClosedLoop(task: Task, options: RunOptions): Promise<RunResult> {
  const warmup = options.warmupPerClient ?? 1;
  if (warmup > 0) {
    await Promise.all(
      Array.from({ length: options.clients }, async (_, w) => {
        for (let i = 0; i < warmup; i++) await task(w, -1 - i).catch(() => undefined);
      }),
    );
  }
  options.onMeasureStart?.();
  const result: RunResult = { latencies: [], errors: 0, records: 0, wallMs: 0 };
  const maxErrors = options.maxErrors ?? 20;
  let issued = 0;
  const started = performance.now();
  const deadline = started + options.maxMs;
  await Promise.all(
    Array.from({ length: options.clients }, async (_, w) => {
      while (issued < options.maxRequests && performance.now() < deadline && result.errors < maxErrors) {
        const seq = issued++;
        try {
          const r = await task(w, seq);
          if (r.ok) {
            result.latencies.push(r.ms);
            result.records += r.records ?? 0;
          } else {
            result.errors++;
            result.firstError ??= r.error;
          }
        } catch (err) {
          result.errors++;
          result.firstError ??= (err as Error).message;
        }
      }
    }),
  );
  result.wallMs = performance.now() - started;
  return result;
}
