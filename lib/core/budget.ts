// A FIFO budget of units (bytes, builds) shared by the requests of one process: a request
// over the budget waits its turn and, after a bounded wait, gets BusyError (503 with
// Retry-After) instead of pushing the server out of memory.
import 'server-only';
import { AppError } from '@/lib/core/errors';

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

const globalForBudgets = globalThis as unknown as { crossroadsBudgets?: Map<string, ByteBudget> };

/**
 * The process-wide budget of that name, one per process like the database (lib/db:
 * Next bundles routes into separate module graphs); a new one when the capacity changes.
 */
export function processBudget(name: string, capacity: number): ByteBudget {
  const budgets = (globalForBudgets.crossroadsBudgets ??= new Map());
  let budget = budgets.get(name);
  if (!budget || budget.capacity !== capacity) {
    budget = new ByteBudget(capacity);
    budgets.set(name, budget);
  }
  return budget;
}

/** The process-wide budget of that name when one was made (undefined before its first use). */
export function existingProcessBudget(name: string): ByteBudget | undefined {
  return globalForBudgets.crossroadsBudgets?.get(name);
}
