// Stores a validated batch: one transaction, one createMany per table, so a batch is
// a handful of statements however many records it holds, and a failure stores nothing.
import { AppError } from '@/lib/errors';
import { Prisma } from '@/lib/generated/prisma/client';
import type { Db } from '@/lib/db';
import type { JsonValue } from './types';
import type { TraceInput } from './validate';

// Absent and null JSON values are both stored as SQL NULL and read back as null.
function jsonColumn(value: JsonValue): Prisma.InputJsonValue | typeof Prisma.DbNull {
  return value === null ? Prisma.DbNull : (value as Prisma.InputJsonValue);
}

export function isUniqueViolation(err: unknown): boolean {
  return err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002';
}

/** Stores every trace of the batch with its children, or none; returns how many traces were stored. */
export async function ingestTraces(db: Db, traces: TraceInput[]): Promise<number> {
  const traceRows = traces.map((t) => ({
    id: t.id,
    name: t.name,
    sessionId: t.sessionId,
    status: t.status,
    tags: t.tags,
    metadata: jsonColumn(t.metadata),
    totalCost: t.totalCost,
    totalTokens: t.totalTokens,
    totalDuration: t.totalDuration,
    startedAt: t.startedAt,
    endedAt: t.endedAt,
  }));
  const decisionRows = traces.flatMap((t) =>
    t.decisionPoints.map((d) => ({
      traceId: t.id,
      id: d.id,
      type: d.type,
      reasoning: d.reasoning,
      chosen: jsonColumn(d.chosen),
      alternatives: d.alternatives as Prisma.InputJsonValue,
      contextSnapshot: jsonColumn(d.contextSnapshot),
      durationMs: d.durationMs,
      costUsd: d.costUsd,
      parentSpanId: d.parentSpanId,
      timestamp: d.timestamp,
    })),
  );
  const spanRows = traces.flatMap((t) =>
    t.spans.map((s) => ({
      traceId: t.id,
      id: s.id,
      parentSpanId: s.parentSpanId,
      name: s.name,
      type: s.type,
      input: jsonColumn(s.input),
      output: jsonColumn(s.output),
      tokenCount: s.tokenCount,
      costUsd: s.costUsd,
      durationMs: s.durationMs,
      status: s.status,
      statusMessage: s.statusMessage,
      startedAt: s.startedAt,
      endedAt: s.endedAt,
      metadata: jsonColumn(s.metadata),
    })),
  );
  const eventRows = traces.flatMap((t) =>
    t.events.map((e) => ({
      traceId: t.id,
      id: e.id,
      spanId: e.spanId,
      type: e.type,
      name: e.name,
      metadata: jsonColumn(e.metadata),
      timestamp: e.timestamp,
    })),
  );

  try {
    await db.$transaction(
      async (tx) => {
        await tx.trace.createMany({ data: traceRows });
        if (decisionRows.length) await tx.decisionPoint.createMany({ data: decisionRows });
        if (spanRows.length) await tx.span.createMany({ data: spanRows });
        if (eventRows.length) await tx.event.createMany({ data: eventRows });
      },
      // A 1000-trace batch of large spans takes seconds; the default 5 s is too tight.
      { timeout: 120_000, maxWait: 30_000 },
    );
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError('CONFLICT', 'Duplicate trace ID detected');
    throw err;
  }
  return traces.length;
}
