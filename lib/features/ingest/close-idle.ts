// A trace sent span by span (OTLP) is RUNNING until its root span arrives. The root may
// never come here (it lives in another service that exports elsewhere, or its process
// died), so a RUNNING OTLP trace that has received no span for the idle timeout is
// closed from what it has:
// - status ERROR when one of its local roots (spans whose parent is not stored) failed,
//   else COMPLETED: the local roots are the outermost work this store saw;
// - endedAt the latest span end (or start, for spans without one), totalDuration from it.
// A root span that arrives later still sets the final fields (upsert-spans.ts); other
// late spans add to the totals without reopening the trace.
// JSON API traces have no lastSpanAt and are never touched.
import 'server-only';
import { requireScope, type ServiceContext } from '@/lib/core/context';
import { sql } from '@/lib/db/sql';

// Bounded per call, and SKIP LOCKED: a sweep never waits on ingest holding a trace.
const closeIdleSql = (idleSince: Date, max: number) => sql`
WITH idle AS (
  SELECT "id" FROM "Trace"
   WHERE "status" = 'RUNNING' AND "lastSpanAt" < ${idleSince.toISOString()}::timestamptz AND "source" = 'OTLP'
   ORDER BY "lastSpanAt"
   LIMIT ${max}
   FOR UPDATE SKIP LOCKED
), closing AS (
  SELECT i."id",
         max(COALESCE(s."endedAt", s."startedAt")) AS "endedAt",
         bool_or(s."status" = 'ERROR' AND NOT EXISTS (
           SELECT 1 FROM "Span" p WHERE p."traceId" = s."traceId" AND p."id" = s."parentSpanId")) AS failed
    FROM idle i JOIN "Span" s ON s."traceId" = i."id"
   GROUP BY i."id"
)
UPDATE "Trace" t SET
  "status" = CASE WHEN c.failed THEN 'ERROR'::"RunStatus" ELSE 'COMPLETED'::"RunStatus" END,
  "endedAt" = c."endedAt",
  "totalDuration" = extract(epoch FROM (c."endedAt" - t."startedAt")) * 1000
FROM closing c
WHERE t."id" = c."id"
RETURNING t."id"`;

/** Closes up to `max` RUNNING OTLP traces whose last span arrived before `idleSince`; returns how many. */
export async function closeIdleTraces(ctx: ServiceContext, idleSince: Date, max = 500): Promise<number> {
  requireScope(ctx, 'ingest');
  const closed = await ctx.db.sql.query(closeIdleSql(idleSince, max));
  return closed.length;
}
