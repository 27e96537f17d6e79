// Evaluators as the API shows them. Safe to import from client components: no server code.
import type { JsonValue } from '@/lib/core/json';

import { RULE_KINDS } from './rules';

export const EVALUATOR_KINDS = [...RULE_KINDS, 'json_schema', 'llm_judge'] as const;
export type EvaluatorKind = (typeof EVALUATOR_KINDS)[number];

export const TARGETS = ['live', 'experiments'] as const;
export type TargetOn = (typeof TARGETS)[number];

export interface EvaluatorTarget {
  on: TargetOn;
  /** experiments: the dataset whose experiments' runs are scored. */
  dataset: string | null;
  /** live: the trace list's query string (as saved views store it); '' matches every trace. */
  query: string;
  /** live: the share of matching traces evaluated, 0..1. */
  sampleRate: number;
}

/** What a client sets on an evaluator (POST, and PATCH merged into the stored one). */
export interface EvaluatorInput {
  name: string;
  kind: EvaluatorKind;
  config: JsonValue;
  scoreName: string;
  target: EvaluatorTarget;
  enabled: boolean;
}

export interface Evaluator extends EvaluatorInput {
  id: string;
  createdAt: string;
  updatedAt: string;
}

/** How an evaluator's work stands (GET /api/evaluators/{id}). */
export interface EvaluatorJobCounts {
  queued: number;
  running: number;
  done: number;
  skipped: number;
  failed: number;
  /** The latest failure's reason, if any. */
  lastError: string | null;
}

/** One evaluation's result, as "Try on a trace" shows it and as it is stored. */
export interface EvaluationResult {
  dataType: 'BOOLEAN' | 'NUMERIC' | 'CATEGORICAL';
  value: boolean | number | string;
  comment: string | null;
  metadata: JsonValue | null;
}
