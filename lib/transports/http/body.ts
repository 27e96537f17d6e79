// Reads a request body with a size cap enforced while streaming: an oversized body is
// refused as soon as it crosses the limit, never buffered whole first. readBodyBytes
// also undoes Content-Encoding, with the cap applied to the inflated bytes as they come.
//
// A body refused before its end is not cancelled but read on and thrown away while the
// answer goes out: cancelling destroys the socket, and a client still sending (a zip bomb
// refused after a few KiB, a chunked body past the limit) then sees a reset instead of the
// 413, which OTLP exporters retry. This lives here, not in a server adapter, because the
// route handler is the only place that holds the body under both `next start` and a bare
// node:http server. (proxy.ts runs for no API route, so every route reads its body from
// the socket, after authenticating the caller.)
import 'server-only';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createInflate, createInflateRaw } from 'node:zlib';
import { AppError } from '@/lib/core/errors';

const tooLarge = () => new AppError('PAYLOAD_TOO_LARGE', 'Request body too large');

const MiB = 1024 * 1024;

/**
 * How much of a refused body is still read and discarded: MAX_BODY_BYTES more bytes (at
 * least 8 MiB) and 30 s at most. Every zip bomb the limit lets in, and any body up to twice
 * the limit, so gets its answer; past the bound the body is cancelled, which closes the
 * connection. Discarding keeps no bytes; behind the answer it holds only the socket.
 */
export const DISCARD_MIN_BYTES = 8 * MiB;
export const DISCARD_MAX_MS = 30_000;

/** Reads the rest of a body the caller stopped reading, throwing it away within the bound; never rejects. */
function discardRest(reader: ReadableStreamDefaultReader<Uint8Array>, maxBytes: number): Promise<void> {
  const bound = Math.max(maxBytes, DISCARD_MIN_BYTES);
  const stop = () => reader.cancel().catch(() => undefined);
  const timer = setTimeout(stop, DISCARD_MAX_MS);
  timer.unref?.();
  return (async () => {
    let discarded = 0;
    try {
      while (discarded <= bound) {
        const { done, value } = await reader.read();
        if (done) return;
        discarded += value.byteLength;
      }
      await stop();
    } catch {
      // The client went away or the timer cancelled the body: nothing left to do.
    } finally {
      clearTimeout(timer);
    }
  })();
}

/**
 * Whether the client asked to close the connection after this exchange. node:http (under
 * `next start` too) then closes it as soon as the answer is written, which resets a client
 * still sending, so for these the rest is discarded before answering; keep-alive clients
 * (OTLP exporters) get the answer at once while the rest is discarded behind it.
 */
function closesAfterAnswer(req: Request): boolean {
  return (req.headers.get('connection') ?? '').split(',').some((t) => t.trim().toLowerCase() === 'close');
}

/**
 * Discards the rest of a body left early: in the background, or first when the connection
 * closes after the answer (then within the request's admission, like reading a slow body).
 */
async function leaveBody(req: Request, reader: ReadableStreamDefaultReader<Uint8Array>, maxBytes: number): Promise<void> {
  const discarding = discardRest(reader, maxBytes);
  if (closesAfterAnswer(req)) await discarding;
}

/** Throws err once the unread body is being discarded (see leaveBody). */
async function refuseUnread(req: Request, maxBytes: number, err: AppError): Promise<never> {
  if (req.body && !req.bodyUsed && !req.body.locked) await leaveBody(req, req.body.getReader(), maxBytes);
  throw err;
}

export async function readBodyText(req: Request, maxBytes: number): Promise<string> {
  const declared = Number(req.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) return refuseUnread(req, maxBytes, tooLarge());
  if (!req.body) return '';

  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await leaveBody(req, reader, maxBytes);
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size).toString('utf8');
}

/** The body's JSON value, or null when it is not JSON (the parser then names what is missing). */
export function jsonOrNull(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/**
 * The request with its body read up to maxBytes (413 over it), for code that reads the body
 * itself with no bound (a library's handler).
 */
export async function withBoundedBody(req: Request, maxBytes: number): Promise<Request> {
  if (req.method === 'GET' || req.method === 'HEAD' || !req.body) return req;
  const text = await readBodyText(req, maxBytes);
  const headers = new Headers(req.headers);
  headers.delete('content-length');
  headers.delete('transfer-encoding');
  return new Request(req.url, { method: req.method, headers, body: text, signal: req.signal });
}

type ContentCoding = 'identity' | 'gzip' | 'deflate';

function contentCoding(header: string | null): ContentCoding {
  const codings = (header ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
  if (codings.length === 0) return 'identity';
  if (codings.length === 1 && (codings[0] === 'gzip' || codings[0] === 'x-gzip')) return 'gzip';
  if (codings.length === 1 && codings[0] === 'deflate') return 'deflate';
  throw new AppError(
    'UNSUPPORTED_MEDIA_TYPE',
    `Unsupported Content-Encoding "${header}": send the body uncompressed, gzip or deflate`,
  );
}

/** The body's chunks as sent, refused as soon as they pass maxBytes; discards the rest when left early. */
async function* sentChunks(req: Request, body: ReadableStream<Uint8Array>, maxBytes: number): AsyncGenerator<Uint8Array> {
  const reader = body.getReader();
  let size = 0;
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        finished = true;
        return;
      }
      size += value.byteLength;
      if (size > maxBytes) throw tooLarge();
      yield value;
    }
  } finally {
    if (!finished) await leaveBody(req, reader, maxBytes);
  }
}

// RFC 9110's "deflate" is the zlib format (RFC 1950), but some clients send raw deflate
// (RFC 1951); a zlib stream starts with a CMF byte naming method 8 and a header check
// that makes the first two bytes a multiple of 31.
function isZlibHeader(b0: number, b1: number): boolean {
  return (b0 & 0x0f) === 8 && ((b0 << 8) | b1) % 31 === 0;
}

function isZlibError(err: unknown): err is Error {
  const code = (err as { code?: unknown } | null)?.code;
  return err instanceof Error && typeof code === 'string' && code.startsWith('Z_');
}

// Larger than zlib's 16 KiB default: fewer round trips to the thread pool for ordinary
// bodies, still a small step past the limit for a zip bomb.
const INFLATE_CHUNK = 64 * 1024;

/**
 * Reads a request body as bytes, undoing Content-Encoding gzip (x-gzip) or deflate.
 * maxBytes caps both the bytes sent and the bytes they inflate to, checked as the data
 * streams: a zip bomb is refused after inflating just past the limit, never whole.
 */
export async function readBodyBytes(req: Request, maxBytes: number): Promise<Uint8Array> {
  let coding: ContentCoding;
  try {
    coding = contentCoding(req.headers.get('content-encoding'));
  } catch (err) {
    return refuseUnread(req, maxBytes, err as AppError);
  }
  const declared = Number(req.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) return refuseUnread(req, maxBytes, tooLarge());
  if (!req.body) return new Uint8Array(0);

  const sent = sentChunks(req, req.body, maxBytes);
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (coding === 'identity') {
    for await (const chunk of sent) {
      chunks.push(chunk);
      size += chunk.byteLength;
    }
    return Buffer.concat(chunks, size);
  }

  // The first two bytes tell zlib-wrapped deflate from raw deflate.
  const head: Uint8Array[] = [];
  let headSize = 0;
  while (headSize < 2) {
    const next = await sent.next();
    if (next.done) break;
    head.push(next.value);
    headSize += next.value.byteLength;
  }
  if (headSize === 0) return new Uint8Array(0);
  const start = Buffer.concat(head, headSize);
  const inflater =
    coding === 'gzip'
      ? createGunzip({ chunkSize: INFLATE_CHUNK })
      : headSize >= 2 && isZlibHeader(start[0], start[1])
        ? createInflate({ chunkSize: INFLATE_CHUNK })
        : createInflateRaw({ chunkSize: INFLATE_CHUNK });

  async function* replayed(): AsyncGenerator<Uint8Array> {
    try {
      yield start;
      for (let next = await sent.next(); !next.done; next = await sent.next()) yield next.value;
    } finally {
      await sent.return(undefined);
    }
  }

  try {
    await pipeline(replayed(), inflater, async (inflated: AsyncIterable<Buffer>) => {
      for await (const chunk of inflated) {
        size += chunk.byteLength;
        if (size > maxBytes) throw tooLarge();
        chunks.push(chunk);
      }
    });
  } catch (err) {
    if (isZlibError(err)) throw new AppError('VALIDATION', `Invalid ${coding} body: ${err.message}`);
    throw err;
  }
  return Buffer.concat(chunks, size);
}
