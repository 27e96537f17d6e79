// Admission control for large request bodies. Every in-flight 100-trace batch (~9 MB)
// holds more than 50 MB of heap while it is parsed, validated and stored, and on two
// cores the one JavaScript thread is the ingest limit anyway (1 and 4 clients store the
// same records/s, see docs/benchmarks.md). So the bytes of bodies being processed are
// bounded per process; a request over the budget waits its turn (FIFO) and, after a
// bounded wait, gets 503 with Retry-After instead of pushing the server out of memory.
import 'server-only';
import { existingProcessBudget, processBudget } from '@/lib/core/budget';

const BODIES = 'request bodies';

// How long this process has spent with at least one body in flight, for background work
// to tell a saturated ingest (bodies back to back) from a paced one (gaps between them).
// On globalThis: Next bundles this module into the routes and the upkeep apart, and both
// must see one count.
const busy: { inFlight: number; since: number; totalMs: number } = ((globalThis as { __crossroadsBodiesBusy?: typeof busy }).__crossroadsBodiesBusy ??= {
  inFlight: 0,
  since: 0,
  totalMs: 0,
});
function enter(): void {
  if (busy.inFlight++ === 0) busy.since = performance.now();
}
function leave(): void {
  if (--busy.inFlight === 0) busy.totalMs += performance.now() - busy.since;
}

/** Milliseconds this process has had a body in flight, since it started (the current stretch included). */
export function bodiesBusyMs(): number {
  return busy.totalMs + (busy.inFlight > 0 ? performance.now() - busy.since : 0);
}

/** Runs fn with the request's declared size (or the body limit, when undeclared or compressed) reserved. */
export async function withBodyAdmission<T>(
  req: Request,
  limits: { maxBodyBytes: number; maxInflightBodyBytes: number; admissionWaitMs: number },
  fn: () => Promise<T>,
): Promise<T> {
  const declared = Number(req.headers.get('content-length'));
  // A compressed body (OTLP) may inflate up to the body limit, which applies after decompression.
  const encoding = (req.headers.get('content-encoding') ?? 'identity').trim().toLowerCase();
  const compressed = encoding !== '' && encoding !== 'identity';
  const bytes =
    !compressed && Number.isFinite(declared) && declared > 0 ? Math.min(declared, limits.maxBodyBytes) : limits.maxBodyBytes;
  const release = await processBudget(BODIES, limits.maxInflightBodyBytes).acquire(bytes, limits.admissionWaitMs);
  enter();
  try {
    return await fn();
  } finally {
    leave();
    release();
  }
}

/**
 * Whether this process is handling a request body now: JSON and OTLP ingest and every
 * SOAP request (reads included: SOAP calls are POSTs) pass through withBodyAdmission.
 * Background work (the search indexer) yields while one is.
 */
export function bodiesInFlight(): boolean {
  return (existingProcessBudget(BODIES)?.used ?? 0) > 0;
}
