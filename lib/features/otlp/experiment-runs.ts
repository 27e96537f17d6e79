// Which experiment run an OTLP trace is: `crossroads.experiment.id`,
// `crossroads.dataset.item_id` and `crossroads.experiment.repetition` on the root span,
// else on any span's resource (a script running a dataset sets them per run).
import type { ExperimentLink } from '@/lib/features/experiments';
import type { Attributes, AttributeValue, OtlpSpan } from './types';

export const EXPERIMENT_ID = 'crossroads.experiment.id';
export const DATASET_ITEM_ID = 'crossroads.dataset.item_id';
export const EXPERIMENT_REPETITION = 'crossroads.experiment.repetition';

const text = (value: AttributeValue | undefined): string | null => (typeof value === 'string' && value.length > 0 ? value : null);

function repetitionOf(value: AttributeValue | undefined): number | null {
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : null;
}

function runOf(attributes: Attributes): { experimentId: string; itemId: string; repetition: number | null } | null {
  const experimentId = text(attributes[EXPERIMENT_ID]);
  const itemId = text(attributes[DATASET_ITEM_ID]);
  if (!experimentId || !itemId) return null;
  return { experimentId, itemId, repetition: EXPERIMENT_REPETITION in attributes ? repetitionOf(attributes[EXPERIMENT_REPETITION]) : 0 };
}

/** The run each trace of the request names (one per trace; the root span's words first); a bad repetition is a problem. */
export function experimentRunsOf(spans: readonly OtlpSpan[]): { links: ExperimentLink[]; problems: string[] } {
  const byTrace = new Map<string, { experimentId: string; itemId: string; repetition: number | null; fromRoot: boolean }>();
  for (const span of spans) {
    const fromRoot = span.parentSpanId === '' ? runOf(span.attributes) : null;
    const found = fromRoot ?? runOf(span.resource.attributes);
    if (!found) continue;
    const held = byTrace.get(span.traceId);
    if (!held || (fromRoot && !held.fromRoot)) byTrace.set(span.traceId, { ...found, fromRoot: fromRoot !== null });
  }
  const links: ExperimentLink[] = [];
  const problems: string[] = [];
  for (const [traceId, run] of byTrace) {
    if (run.repetition === null) problems.push(`trace ${traceId}: ${EXPERIMENT_REPETITION} must be an integer from 0`);
    else links.push({ traceId, experimentId: run.experimentId, itemId: run.itemId, repetition: run.repetition });
  }
  return { links, problems };
}
