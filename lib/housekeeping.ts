// Upkeep that no single request owns: today, closing OTLP traces whose root span never
// came (lib/traces/close-idle.ts). It runs two ways, so it works on any host:
// - after OTLP export requests, at most once per HOUSEKEEPING_INTERVAL_MS per process
//   (serverless hosts run code only on requests, and idle traces only come from OTLP);
// - on a timer in a long-running server (instrumentation.ts), so a trace is closed even
//   when no further spans arrive.
import { getDatabase } from '@/lib/db';
import { getOtlpConfig } from '@/lib/env';
import { closeIdleTraces } from '@/lib/traces/close-idle';

export const HOUSEKEEPING_INTERVAL_MS = 60_000;

const state = globalThis as unknown as { __crossroadsHousekeepingAt?: number; __crossroadsHousekeepingTimer?: NodeJS.Timeout };

/** Runs every upkeep task once; never throws (a failure is logged and retried next time). */
export async function runHousekeeping(now = new Date()): Promise<void> {
  state.__crossroadsHousekeepingAt = now.getTime();
  try {
    const { sql } = await getDatabase();
    const idleSince = new Date(now.getTime() - getOtlpConfig().traceIdleTimeoutSeconds * 1000);
    // Bounded batches until none is left, so a backlog clears without one long statement.
    while ((await closeIdleTraces(sql, idleSince, 500)) === 500);
  } catch (err) {
    console.error('[crossroads] housekeeping failed:', err);
  }
}

/** Runs housekeeping when this process has not for HOUSEKEEPING_INTERVAL_MS. */
export async function runHousekeepingIfDue(): Promise<void> {
  const last = state.__crossroadsHousekeepingAt ?? 0;
  if (Date.now() - last >= HOUSEKEEPING_INTERVAL_MS) await runHousekeeping();
}

/** Starts the periodic run in a long-running server (once per process). */
export function startHousekeepingTimer(): void {
  if (state.__crossroadsHousekeepingTimer) return;
  state.__crossroadsHousekeepingTimer = setInterval(() => void runHousekeepingIfDue(), HOUSEKEEPING_INTERVAL_MS);
  state.__crossroadsHousekeepingTimer.unref();
}
