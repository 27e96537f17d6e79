// Admission control for large request bodies. Every in-flight 100-trace batch (~9 MB)
// holds more than 50 MB of heap while it is parsed, validated and stored, and on two
// cores the one JavaScript thread is the ingest limit anyway (1 and 4 clients store the
// same records/s, see docs/benchmarks.md). So the bytes of bodies being processed are
// bounded per process; a request over the budget waits its turn (FIFO) and, after a
// bounded wait, gets 503 with Retry-After instead of pushing the server out of memory.
import { AppError } from '@/lib/errors';

export class BusyError extends AppError {
  readonly retryAfterSeconds: number;

  constructor(retryAfterSeconds: number) {
    super('UNAVAILABLE', 'Server busy: too many large requests in progress, retry later');
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

interface Waiter {
  bytes: number;
  grant: () => void;
}

export class ByteBudget {
  private inUse = 0;
  private readonly queue: Waiter[] = [];

  constructor(readonly capacity: number) {}

  get used(): number {
    return this.inUse;
  }

  /**
   * Reserves `bytes` (capped at the capacity, so any single request can run alone) and
   * returns the release function; throws BusyError when it cannot within `waitMs`.
   */
  async acquire(bytes: number, waitMs: number): Promise<() => void> {
    const amount = Math.min(Math.max(bytes, 1), this.capacity);
    if (this.queue.length === 0 && this.inUse + amount <= this.capacity) {
      this.inUse += amount;
      return this.releaser(amount);
    }
    await new Promise<void>((resolve, reject) => {
      const waiter: Waiter = { bytes: amount, grant: resolve };
      const timer = setTimeout(() => {
        const i = this.queue.indexOf(waiter);
        if (i >= 0) this.queue.splice(i, 1);
        reject(new BusyError(Math.max(1, Math.ceil(waitMs / 1000))));
      }, waitMs);
      waiter.grant = () => {
        clearTimeout(timer);
        resolve();
      };
      this.queue.push(waiter);
    });
    return this.releaser(amount);
  }

  private releaser(amount: number): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.inUse -= amount;
      this.drain();
    };
  }

  private drain(): void {
    while (this.queue.length > 0 && this.inUse + this.queue[0].bytes <= this.capacity) {
      const next = this.queue.shift()!;
      this.inUse += next.bytes;
      next.grant();
    }
  }
}

const globalForBudget = globalThis as unknown as { crossroadsBodyBudget?: ByteBudget };

/** The process-wide budget (one per process, like the database: see lib/db.ts). */
export function bodyBudget(capacity: number): ByteBudget {
  const current = globalForBudget.crossroadsBodyBudget;
  if (!current || current.capacity !== capacity) globalForBudget.crossroadsBodyBudget = new ByteBudget(capacity);
  return globalForBudget.crossroadsBodyBudget!;
}

/** Runs fn with the request's declared size (or the body limit, when undeclared) reserved. */
export async function withBodyAdmission<T>(
  req: Request,
  limits: { maxBodyBytes: number; maxInflightBodyBytes: number; admissionWaitMs: number },
  fn: () => Promise<T>,
): Promise<T> {
  const declared = Number(req.headers.get('content-length'));
  const bytes = Number.isFinite(declared) && declared > 0 ? Math.min(declared, limits.maxBodyBytes) : limits.maxBodyBytes;
  const release = await bodyBudget(limits.maxInflightBodyBytes).acquire(bytes, limits.admissionWaitMs);
  try {
    return await fn();
  } finally {
    release();
  }
}
