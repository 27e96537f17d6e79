// GET /api/experiments/compare: experiments of one dataset item by item, and where their
// runs chose differently (the first position their decision paths part, as forks count).
import 'server-only';
import { requireScope, type ServiceContext } from '@/lib/core/context';
import { AppError } from '@/lib/core/errors';
import type { JsonValue } from '@/lib/core/json';
import { sql } from '@/lib/db/sql';
import { experimentsById, itemFacts, runRows } from './record';
import { summarize } from './summary';
import type { CompareItem, ExperimentComparison, RunRow } from './types';

/** Where the paths first part: the position and each run's label there (null past its end). */
export function firstDifference(runs: ReadonlyArray<{ experimentId: string; path: readonly string[] }>): CompareItem['firstDifference'] {
  if (runs.length < 2) return null;
  const longest = Math.max(...runs.map((r) => r.path.length));
  for (let position = 0; position < longest; position++) {
    const labels = runs.map((r) => r.path[position] ?? null);
    if (labels.some((l) => l !== labels[0])) return { position, choices: runs.map((r, i) => ({ experimentId: r.experimentId, label: labels[i] })) };
  }
  return null;
}

export async function compareExperiments(
  ctx: ServiceContext,
  ids: readonly string[],
  options: { onlyDifferent: boolean; page: number; limit: number },
): Promise<ExperimentComparison> {
  requireScope(ctx, 'read');
  const db = ctx.db.sql;
  const found = await experimentsById(db, ids);
  const missing = ids.find((id) => !found.some((e) => e.id === id));
  if (missing) throw new AppError('NOT_FOUND', `Experiment "${missing}" not found`);
  const ordered = ids.map((id) => found.find((e) => e.id === id)!);
  const datasetId = ordered[0].datasetId;
  if (ordered.some((e) => e.datasetId !== datasetId)) throw new AppError('VALIDATION', 'Experiments to compare must be of the same dataset');

  const [runs, items] = await Promise.all([runRows(db, ids), itemFacts(db, datasetId)]);
  const experiments = ordered.map((e) => ({
    experiment: { id: e.id, dataset: e.dataset, name: e.name, metadata: e.metadata, passCriteria: e.passCriteria, createdAt: e.createdAt },
    summary: summarize(runs.filter((r) => r.experimentId === e.id), items, e.passCriteria),
  }));

  // Each item's first run in each experiment, in the order asked.
  const firstRuns = new Map<string, Map<string, RunRow>>();
  for (const run of runs) {
    const byExperiment = firstRuns.get(run.itemId) ?? new Map<string, RunRow>();
    const held = byExperiment.get(run.experimentId);
    if (!held || run.repetition < held.repetition) byExperiment.set(run.experimentId, run);
    firstRuns.set(run.itemId, byExperiment);
  }
  const rows = items
    .filter((item) => !item.archived || firstRuns.has(item.id))
    .map((item) => {
      const chosen = ids.map((id) => firstRuns.get(item.id)?.get(id)).filter((r): r is RunRow => !!r);
      const paths = chosen.map((r) => ({ experimentId: r.experimentId, path: r.steps.map((s) => s.label) }));
      const difference = firstDifference(paths);
      const statusDiffers = new Set(chosen.map((r) => r.status)).size > 1;
      return { item, chosen, paths, difference, differs: difference !== null || statusDiffers };
    })
    .filter((row) => !options.onlyDifferent || row.differs);

  const total = rows.length;
  const pageRows = rows.slice((options.page - 1) * options.limit, options.page * options.limit);
  const pageTraces = pageRows.flatMap((r) => r.chosen.map((run) => run.traceId));
  const itemIds = pageRows.map((r) => r.item.id);
  const [outputs, contents] = await Promise.all([
    db.query<{ traceId: string; output: JsonValue | null }>(sql`
      SELECT DISTINCT ON (s."traceId") s."traceId", s."output" FROM "Span" s
       WHERE s."traceId" = ANY(${pageTraces}::text[]) AND s."parentSpanId" IS NULL
       ORDER BY s."traceId", s."startedAt", s."id"`),
    db.query<{ id: string; input: JsonValue; expectedOutput: JsonValue | null }>(sql`
      SELECT i."id", i."input", i."expectedOutput" FROM "DatasetItem" i WHERE i."datasetId" = ${datasetId} AND i."id" = ANY(${itemIds}::text[])`),
  ]);
  const outputOf = new Map(outputs.map((o) => [o.traceId, o.output]));
  const contentOf = new Map(contents.map((c) => [c.id, c]));

  return {
    experiments,
    items: pageRows.map(({ item, chosen, paths, difference }) => ({
      itemId: item.id,
      input: contentOf.get(item.id)?.input ?? null,
      expectedOutput: contentOf.get(item.id)?.expectedOutput ?? null,
      runs: chosen.map((run, i) => ({
        experimentId: run.experimentId,
        traceId: run.traceId,
        repetition: run.repetition,
        status: run.status,
        output: outputOf.get(run.traceId) ?? null,
        costUsd: run.costUsd,
        durationMs: run.durationMs,
        scores: Object.fromEntries(run.scores.map((s) => [s.name, s.value ?? s.stringValue])),
        path: paths[i].path,
      })),
      decisionsDiffer: difference !== null,
      firstDifference: difference,
    })),
    total,
    page: options.page,
    limit: options.limit,
    totalPages: Math.ceil(total / options.limit),
  };
}
