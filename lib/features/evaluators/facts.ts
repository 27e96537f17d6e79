// What an evaluation reads of a run: its output, input, cost, duration and decision path,
// and, when the run is an experiment's, its item's expectations. One statement for a
// batch of traces. The judge also reads the trajectory (trajectory.ts).
import type { SqlExecutor } from '@/lib/db/executor';
import { sql } from '@/lib/db/sql';
import type { JsonValue } from '@/lib/core/json';
import type { ExpectedDecision } from '@/lib/features/datasets/shared';
import type { PathStep } from '@/lib/features/experiments/shared';
import type { RunFacts } from './rules';

/** A run as the evaluators read it. */
export interface TraceFacts extends RunFacts {
  traceId: string;
  input: JsonValue | null;
}

interface LinkedItem {
  datasetId: string;
  expectedOutput: JsonValue | null;
  expectedDecisions: ExpectedDecision[] | null;
}

/** A stored trace's facts, with the items of every experiment run it is (newest link first). */
export interface TraceRun {
  facts: Omit<TraceFacts, 'expectedOutput' | 'expectedDecisions'>;
  items: LinkedItem[];
}

/** The facts an evaluator reads: the expectations of its dataset's item (else the newest link's; none for a trace that is no run). */
export function factsFor(run: TraceRun, datasetId: string | null): TraceFacts {
  const item = run.items.find((i) => datasetId === null || i.datasetId === datasetId) ?? null;
  return { ...run.facts, expectedOutput: item?.expectedOutput ?? null, expectedDecisions: item?.expectedDecisions ?? null };
}

interface FactsRow {
  traceId: string;
  input: JsonValue | null;
  output: JsonValue | null;
  costUsd: number | null;
  durationMs: number | null;
  steps: PathStep[];
  items: LinkedItem[] | null;
}

/**
 * The facts of the traces that exist (a deleted one is absent). The input and output are
 * the root span's (no parent, the first by start), else the first model call's input and
 * the last one's output, as the list's previews read them.
 */
export async function traceRuns(db: SqlExecutor, traceIds: readonly string[]): Promise<Map<string, TraceRun>> {
  const out = new Map<string, TraceRun>();
  if (traceIds.length === 0) return out;
  const rows = await db.query<FactsRow>(sql`
    WITH ids AS MATERIALIZED (SELECT DISTINCT unnest(${traceIds}::text[]) AS id),
    paths AS MATERIALIZED (SELECT p."traceId", p."steps" FROM "decision_paths"(ARRAY(SELECT id FROM ids)) p)
    SELECT t."id" AS "traceId",
      COALESCE(root."input", (SELECT s."input" FROM "Span" s WHERE s."traceId" = t."id" AND s."type" = 'LLM_CALL'
         AND s."input" IS NOT NULL AND s."input" <> 'null'::jsonb ORDER BY s."startedAt", s."id" LIMIT 1)) AS "input",
      COALESCE(root."output", (SELECT s."output" FROM "Span" s WHERE s."traceId" = t."id" AND s."type" = 'LLM_CALL'
         AND s."output" IS NOT NULL AND s."output" <> 'null'::jsonb ORDER BY s."startedAt" DESC, s."id" DESC LIMIT 1)) AS "output",
      "paths_trace_cost"(t."id", t."totalCost") AS "costUsd",
      "paths_trace_duration"(t."status", t."startedAt", t."endedAt") AS "durationMs",
      coalesce(paths."steps", '[]'::jsonb) AS "steps",
      (SELECT json_agg(json_build_object('datasetId', x."datasetId", 'expectedOutput', i."expectedOutput", 'expectedDecisions', i."expectedDecisions")
                       ORDER BY r."createdAt" DESC)
         FROM "ExperimentRun" r JOIN "Experiment" x ON x."id" = r."experimentId"
         JOIN "DatasetItem" i ON i."datasetId" = x."datasetId" AND i."id" = r."itemId"
        WHERE r."traceId" = t."id") AS "items"
    FROM "Trace" t JOIN ids ON ids.id = t."id"
    LEFT JOIN paths ON paths."traceId" = t."id"
    LEFT JOIN LATERAL (
      SELECT NULLIF(s."input", 'null'::jsonb) AS "input", NULLIF(s."output", 'null'::jsonb) AS "output" FROM "Span" s
       WHERE s."traceId" = t."id" AND s."parentSpanId" IS NULL ORDER BY s."startedAt", s."id" LIMIT 1
    ) root ON true`);
  for (const row of rows) {
    out.set(row.traceId, {
      facts: {
        traceId: row.traceId,
        input: row.input,
        output: row.output,
        costUsd: row.costUsd === null ? null : Number(row.costUsd),
        durationMs: row.durationMs === null ? null : Number(row.durationMs),
        steps: row.steps,
      },
      items: row.items ?? [],
    });
  }
  return out;
}
