// A download streamed from an async source of text pieces, with the backpressure and
// cancellation a long export needs, and a defined behaviour for failures mid-way.
import 'server-only';
export interface Download {
  contentType: string;
  filename: string;
}

/**
 * Sends `pieces` as an attachment. The first piece is read before answering, so a
 * failure up to then (the database is down, a statement fails) is an ordinary JSON
 * error with its status. After that the status is sent: a failure aborts the stream
 * (the chunked body ends without its terminator, or the HTTP/2 stream is reset), so the
 * client sees a failed, truncated download, never a file that looks complete but is
 * not. The cause is logged.
 *
 * Backpressure: a ReadableStream with pull, so the next piece is produced only when
 * the previous one has been taken by the consumer (Node's socket, through Next). When
 * the client disconnects, `signal` aborts and the stream is cancelled: the source is
 * closed (its `finally` blocks run) and no further piece is asked for.
 */
export async function streamDownload(pieces: AsyncGenerator<string>, download: Download, signal?: AbortSignal): Promise<Response> {
  const encoder = new TextEncoder();
  const first = await pieces.next();
  let pending: string | null = first.done ? null : first.value;
  let finished = first.done ?? false;

  // Set once the consumer cancelled (Next does when the client disconnects): a pull
  // still awaiting the source must then neither enqueue nor close.
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          for (;;) {
            if (cancelled) return;
            if (signal?.aborted) {
              await pieces.return(undefined);
              controller.close();
              return;
            }
            if (pending !== null) {
              const piece = pending;
              pending = null;
              // An empty piece is skipped rather than sent as a zero-length chunk.
              if (piece.length > 0) {
                controller.enqueue(encoder.encode(piece));
                return;
              }
            }
            if (finished) {
              controller.close();
              return;
            }
            const next = await pieces.next();
            if (next.done) finished = true;
            else pending = next.value;
          }
        } catch (err) {
          if (cancelled) return;
          console.error(`[download] ${download.filename} aborted after the response had started:`, err);
          controller.error(err);
        }
      },
      async cancel() {
        cancelled = true;
        await pieces.return(undefined);
      },
    },
    // One piece (one batch) waits in the stream at most; Node's socket buffer holds the rest.
    { highWaterMark: 1 },
  );

  return new Response(stream, {
    status: 200,
    headers: {
      'Content-Type': download.contentType,
      'Content-Disposition': `attachment; filename="${download.filename}"`,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}
