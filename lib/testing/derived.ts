// What the triggers and stored counts must equal after any mix of writes and deletes: a
// full recount from the rows themselves. Used by the deletion and retention tests.
import { expect } from 'vitest';
import type { Database } from '@/lib/storage/open';

/** Asserts the per-status counts, the "TraceName" table and each trace's child counts equal a recount. */
export async function expectDerivedExact(db: Database): Promise<void> {
  const counts = await db.sql.query<{ status: string; kept: number; actual: number }>(
    `SELECT c.status::text AS status, c.count::int AS kept, (SELECT count(*)::int FROM "Trace" t WHERE t.status = c.status) AS actual
       FROM "TraceStatusCount" c ORDER BY c.status`,
  );
  expect(counts.map((c) => [c.status, c.kept])).toEqual(counts.map((c) => [c.status, c.actual]));
  const [names] = await db.sql.query<{ missing: number; stale: number; wrong: number }>(
    `SELECT (SELECT count(*)::int FROM "Trace" t WHERE NOT EXISTS (SELECT 1 FROM "TraceName" n WHERE n."traceId" = t.id)) AS missing,
            (SELECT count(*)::int FROM "TraceName" n WHERE NOT EXISTS (SELECT 1 FROM "Trace" t WHERE t.id = n."traceId")) AS stale,
            (SELECT count(*)::int FROM "TraceName" n JOIN "Trace" t ON t.id = n."traceId" WHERE n."nameLower" <> lower(t.name)) AS wrong`,
  );
  expect(names).toEqual({ missing: 0, stale: 0, wrong: 0 });
  const [children] = await db.sql.query<{ off: number; orphans: number }>(
    `SELECT (SELECT count(*)::int FROM "Trace" t
              WHERE t."spanCount" <> (SELECT count(*) FROM "Span" s WHERE s."traceId" = t.id)
                 OR t."eventCount" <> (SELECT count(*) FROM "Event" e WHERE e."traceId" = t.id)
                 OR t."decisionPointCount" <> (SELECT count(*) FROM "DecisionPoint" d WHERE d."traceId" = t.id)) AS off,
            (SELECT count(*)::int FROM "Span" s WHERE NOT EXISTS (SELECT 1 FROM "Trace" t WHERE t.id = s."traceId"))
          + (SELECT count(*)::int FROM "Event" e WHERE NOT EXISTS (SELECT 1 FROM "Trace" t WHERE t.id = e."traceId"))
          + (SELECT count(*)::int FROM "DecisionPoint" d WHERE NOT EXISTS (SELECT 1 FROM "Trace" t WHERE t.id = d."traceId")) AS orphans`,
  );
  expect(children).toEqual({ off: 0, orphans: 0 });
}
