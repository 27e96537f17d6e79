import { randomBytes } from 'node:crypto';
import { deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppError } from '@/lib/core/errors';
import { DISCARD_MAX_MS, DISCARD_MIN_BYTES, readBodyBytes, readBodyText } from './body';

const MiB = 1024 * 1024;

/** A streamed request body (no Content-Length), delivered chunk by chunk as the reader pulls. */
function streamed(chunks: Uint8Array[], pulls = { count: 0 }): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      pulls.count++;
      if (i < chunks.length) controller.enqueue(chunks[i++]);
      else controller.close();
    },
  });
}

/** What a client still sending sees of the server's reads: chunks pulled, whether it was cancelled, when it ended. */
interface Sender {
  stream: ReadableStream<Uint8Array>;
  pulls: number;
  cancelled: boolean;
  /** Resolves once every chunk was pulled and the stream closed. */
  drained: Promise<void>;
  /** Lets chunks from index `gateAt` on through (see sender). */
  open(): void;
}

/**
 * A body whose chunks from index gateAt on wait for open(): a read that needs them before
 * the refusal would hang, so the refusal itself proves how far the reader got.
 */
function sender(chunks: Uint8Array[], gateAt = Infinity): Sender {
  let i = 0;
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let ended!: () => void;
  const drained = new Promise<void>((resolve) => (ended = resolve));
  const s: Sender = {
    pulls: 0,
    cancelled: false,
    drained,
    open,
    stream: new ReadableStream<Uint8Array>({
      async pull(controller) {
        s.pulls++;
        if (i >= gateAt) await gate;
        if (i < chunks.length) controller.enqueue(chunks[i++]);
        else {
          controller.close();
          ended();
        }
      },
      cancel() {
        s.cancelled = true;
      },
    }),
  };
  return s;
}

/** Waits until check() holds (the discarding runs in the background). */
async function eventually(check: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !check(); waited += 5) {
    if (waited > 5000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

function post(body: BodyInit | null, headers: Record<string, string> = {}): Request {
  return new Request('http://localhost/api/otel/v1/traces', { method: 'POST', body, headers, duplex: 'half' } as RequestInit);
}

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

const payload = Buffer.from(JSON.stringify({ resourceSpans: Array.from({ length: 200 }, (_, i) => ({ i, text: 'agent '.repeat(20) })) }));

describe('readBodyBytes', () => {
  it('returns the body as sent when it is not encoded', async () => {
    expect(Buffer.from(await readBodyBytes(post(payload), MiB)).equals(payload)).toBe(true);
    expect(Buffer.from(await readBodyBytes(post(payload, { 'Content-Encoding': 'identity' }), MiB)).equals(payload)).toBe(true);
    expect(await readBodyBytes(post(null), MiB)).toHaveLength(0);
  });

  it('inflates gzip, x-gzip, zlib deflate and raw deflate, streamed in small chunks', async () => {
    const cases: [string, Buffer][] = [
      ['gzip', gzipSync(payload)],
      ['x-gzip', gzipSync(payload)],
      ['GZIP', gzipSync(payload)],
      ['deflate', deflateSync(payload)],
      ['deflate', deflateRawSync(payload)],
    ];
    for (const [encoding, compressed] of cases) {
      const chunks = Array.from({ length: Math.ceil(compressed.length / 7) }, (_, i) => compressed.subarray(i * 7, i * 7 + 7));
      const body = await readBodyBytes(post(streamed(chunks), { 'Content-Encoding': encoding }), MiB);
      expect(Buffer.from(body).equals(payload), encoding).toBe(true);
    }
    // A one-byte first chunk: the zlib header is recognised across chunks.
    const zlib = deflateSync(payload);
    const split = [zlib.subarray(0, 1), zlib.subarray(1)];
    expect(Buffer.from(await readBodyBytes(post(streamed(split), { 'Content-Encoding': 'deflate' }), MiB)).equals(payload)).toBe(true);
  });

  it('treats an empty encoded body as empty', async () => {
    expect(await readBodyBytes(post(new Uint8Array(0), { 'Content-Encoding': 'gzip' }), MiB)).toHaveLength(0);
  });

  it('refuses a body over the limit, as declared or as streamed, encoded or not', async () => {
    const declared = post(payload, { 'Content-Length': String(payload.length) });
    expect((await refusal(readBodyBytes(declared, payload.length - 1))).code).toBe('PAYLOAD_TOO_LARGE');
    expect((await refusal(readBodyBytes(post(streamed([payload])), payload.length - 1))).message).toBe('Request body too large');
    expect(Buffer.from(await readBodyBytes(post(streamed([payload])), payload.length)).equals(payload)).toBe(true);
    // Inflated past the limit while the compressed bytes are well within it.
    const gz = gzipSync(payload);
    expect(gz.length).toBeLessThan(payload.length / 4);
    const inflated = await refusal(readBodyBytes(post(streamed([gz]), { 'Content-Encoding': 'gzip' }), payload.length - 1));
    expect(inflated.code).toBe('PAYLOAD_TOO_LARGE');
    expect(Buffer.from(await readBodyBytes(post(streamed([gz]), { 'Content-Encoding': 'gzip' }), payload.length)).equals(payload)).toBe(true);
    // Incompressible data: the compressed bytes pass the limit first.
    const noise = randomBytes(4096);
    const noisy = gzipSync(noise);
    expect(noisy.length).toBeGreaterThan(noise.length);
    expect((await refusal(readBodyBytes(post(streamed([noisy]), { 'Content-Encoding': 'gzip' }), noise.length))).code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('refuses a zip bomb (1 MiB of gzip inflating to 1 GiB) after inflating just past the limit, then discards the rest', async () => {
    // gzip members may be concatenated; each of these inflates 1 MiB of zeros from ~1 KiB.
    const member = gzipSync(Buffer.alloc(MiB));
    const body = sender(
      Array.from({ length: 1024 }, () => member),
      64,
    );
    const started = performance.now();
    const heapBefore = process.memoryUsage().arrayBuffers;
    // Members from the 64th on are held back: the refusal comes a few members past the 4 MiB limit.
    const err = await refusal(readBodyBytes(post(body.stream, { 'Content-Encoding': 'gzip' }), 4 * MiB));
    const elapsed = performance.now() - started;
    expect(err.code).toBe('PAYLOAD_TOO_LARGE');
    expect(elapsed).toBeLessThan(1000);
    expect(process.memoryUsage().arrayBuffers - heapBefore).toBeLessThan(64 * MiB);
    // What the client still sends is read and thrown away, not cancelled (which would reset it).
    body.open();
    await body.drained;
    expect(body.cancelled).toBe(false);
  });

  it('refuses a truncated or corrupt compressed body as invalid', async () => {
    const gz = gzipSync(payload);
    const truncated = await refusal(readBodyBytes(post(gz.subarray(0, gz.length - 20), { 'Content-Encoding': 'gzip' }), MiB));
    expect(truncated.code).toBe('VALIDATION');
    expect(truncated.message).toMatch(/^Invalid gzip body: /);
    const notGzip = await refusal(readBodyBytes(post(payload, { 'Content-Encoding': 'gzip' }), MiB));
    expect(notGzip.message).toMatch(/^Invalid gzip body: /);
    const z = deflateSync(payload);
    z[z.length - 1] ^= 0xff; // the Adler-32 checksum no longer matches
    const corrupt = await refusal(readBodyBytes(post(z, { 'Content-Encoding': 'deflate' }), MiB));
    expect(corrupt.code).toBe('VALIDATION');
    expect(corrupt.message).toMatch(/^Invalid deflate body: /);
  });

  it('refuses encodings it does not read with 415', async () => {
    for (const encoding of ['br', 'zstd', 'compress', 'gzip, br', 'gzip, gzip']) {
      const err = await refusal(readBodyBytes(post(payload, { 'Content-Encoding': encoding }), MiB));
      expect(err.code, encoding).toBe('UNSUPPORTED_MEDIA_TYPE');
      expect(err.message).toBe(`Unsupported Content-Encoding "${encoding}": send the body uncompressed, gzip or deflate`);
    }
  });
});

describe('a refused body is read to its end in the background, not cancelled (the client sees the answer, not a reset)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  const chunks = (count: number, size: number) => Array.from({ length: count }, () => Buffer.alloc(size, 0x61));

  it('readBodyText: streamed past the limit, or declared over it', async () => {
    const streamedBody = sender(chunks(40, 1024));
    expect((await refusal(readBodyText(post(streamedBody.stream), 4096))).message).toBe('Request body too large');
    await streamedBody.drained;
    expect(streamedBody.cancelled).toBe(false);

    const declared = sender(chunks(40, 1024));
    const req = post(declared.stream, { 'Content-Length': String(40 * 1024) });
    expect((await refusal(readBodyText(req, 4096))).code).toBe('PAYLOAD_TOO_LARGE');
    await declared.drained;
    expect(declared.cancelled).toBe(false);
  });

  it('readBodyBytes: streamed or declared past the limit, an encoding it does not read, a corrupt gzip body', async () => {
    const cases: [string, Record<string, string>, Uint8Array[], AppError['code']][] = [
      ['streamed', {}, chunks(40, 1024), 'PAYLOAD_TOO_LARGE'],
      ['declared', { 'Content-Length': String(40 * 1024) }, chunks(40, 1024), 'PAYLOAD_TOO_LARGE'],
      ['gzip, compressed bytes past the limit', { 'Content-Encoding': 'gzip' }, [gzipSync(randomBytes(8192)), ...chunks(40, 1024)], 'PAYLOAD_TOO_LARGE'],
      ['br', { 'Content-Encoding': 'br' }, chunks(40, 1024), 'UNSUPPORTED_MEDIA_TYPE'],
      ['not gzip (within the limit)', { 'Content-Encoding': 'gzip' }, chunks(4, 1024), 'VALIDATION'],
    ];
    for (const [name, headers, body, code] of cases) {
      const s = sender(body);
      expect((await refusal(readBodyBytes(post(s.stream, headers), 4096))).code, name).toBe(code);
      await s.drained;
      expect(s.cancelled, name).toBe(false);
    }
  });

  it('refuses only once the rest is discarded when the client asked to close the connection after the answer', async () => {
    // node:http closes such a connection as soon as the answer is written: answering first would reset the client.
    for (const read of [readBodyText, readBodyBytes]) {
      const s = sender(chunks(40, 1024));
      const refused = refusal(read(post(s.stream, { Connection: 'close' }), 4096));
      let ended = false;
      void s.drained.then(() => (ended = true));
      await refused;
      expect(ended, read.name).toBe(true);
      expect(s.cancelled).toBe(false);
    }
    // Keep-alive (the default): refused at once, a chunk past the limit, the rest discarded behind the answer.
    const k = sender(chunks(40, 1024), 8);
    await refusal(readBodyText(post(k.stream), 4096));
    expect(k.pulls).toBeLessThanOrEqual(9);
    k.open();
    await k.drained;
  });

  it(`stops at MAX_BODY_BYTES more bytes (at least ${DISCARD_MIN_BYTES / MiB} MiB): past that the body is cancelled`, async () => {
    const s = sender(chunks(20, MiB));
    await refusal(readBodyText(post(s.stream), 1024));
    await eventually(() => s.cancelled, 'the cancel');
    // Refused at the 1st chunk, then 8 MiB more discarded (the 9th chunk crosses it).
    expect(s.pulls).toBeGreaterThanOrEqual(1 + DISCARD_MIN_BYTES / MiB);
    expect(s.pulls).toBeLessThan(20);

    // A limit above 8 MiB is the bound itself.
    const t = sender(chunks(40, MiB));
    await refusal(readBodyText(post(t.stream), 12 * MiB));
    await eventually(() => t.cancelled, 'the cancel');
    expect(t.pulls).toBeGreaterThanOrEqual(13 + 12);
    expect(t.pulls).toBeLessThan(40);
  });

  it(`stops after ${DISCARD_MAX_MS / 1000} s when the client stalls`, async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const s = sender(chunks(10, 1024), 8); // chunks from the 8th on never come
    await refusal(readBodyText(post(s.stream), 4096));
    await vi.advanceTimersByTimeAsync(DISCARD_MAX_MS - 1);
    expect(s.cancelled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(s.cancelled).toBe(true);
  });
});
