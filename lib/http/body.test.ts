import { randomBytes } from 'node:crypto';
import { deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { AppError } from '@/lib/errors';
import { readBodyBytes } from './body';

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

  it('refuses a zip bomb (1 MiB of gzip inflating to 1 GiB) after inflating just past the limit', async () => {
    // gzip members may be concatenated; each of these inflates 1 MiB of zeros from ~1 KiB.
    const member = gzipSync(Buffer.alloc(MiB));
    const members = Array.from({ length: 1024 }, () => member);
    const pulls = { count: 0 };
    const started = performance.now();
    const heapBefore = process.memoryUsage().arrayBuffers;
    const err = await refusal(readBodyBytes(post(streamed(members, pulls), { 'Content-Encoding': 'gzip' }), 4 * MiB));
    const elapsed = performance.now() - started;
    expect(err.code).toBe('PAYLOAD_TOO_LARGE');
    expect(pulls.count).toBeLessThan(64); // of 1024 members: it stopped reading a few past the limit
    expect(elapsed).toBeLessThan(1000);
    expect(process.memoryUsage().arrayBuffers - heapBefore).toBeLessThan(64 * MiB);
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
