import type { JsonValue } from '@/lib/core/json';
import type { RunStatus } from '@/lib/features/traces/shared';

/** What a run must score to pass, beside ending COMPLETED: a minimum, or an exact value. */
export interface PassCriterion {
  scoreName: string;
  min?: number;
  equals?: number | string | boolean;
}

export interface Experiment {
  id: string;
  /** The dataset's name. */
  dataset: string;
  name: string;
  metadata: JsonValue | null;
  passCriteria: PassCriterion[];
  createdAt: string;
}

export interface CreateExperimentInput {
  dataset: string;
  name: string;
  metadata: JsonValue | null;
  passCriteria: PassCriterion[];
}

export interface RunLink {
  itemId: string;
  traceId: string;
  repetition: number;
}

export interface ScoreFigure {
  count: number;
  /** Of NUMERIC and BOOLEAN values (true 1); null when only categories. */
  average: number | null;
}

export interface ExperimentSummary {
  /** Items of the dataset not archived. */
  items: number;
  runs: number;
  /** Items (not archived) without any run. */
  missing: number;
  errorRuns: number;
  costUsd: number | null;
  tokens: number | null;
  p50DurationMs: number | null;
  p95DurationMs: number | null;
  scores: Record<string, ScoreFigure>;
  decisionMatch: { compared: number; matched: number; share: number | null };
  /** Over items with a run: repetition 0 passed; any passed; every one passed. */
  repetitions: { k: number; passAt1: number | null; passAtK: number | null; passHatK: number | null; itemsWithDifferentPaths: number };
}

/** One run as the summary and compare read it. */
export interface RunRow {
  experimentId: string;
  itemId: string;
  repetition: number;
  traceId: string;
  status: RunStatus;
  costUsd: number | null;
  tokens: number | null;
  durationMs: number | null;
  /** Collapsed decision path (type, label, repeats), as the paths read it. */
  steps: Array<{ type: string; label: string; repeats: number }>;
  /** Trace-level scores. */
  scores: Array<{ name: string; value: number | null; stringValue: string | null }>;
}

export interface CompareRun {
  experimentId: string;
  traceId: string;
  repetition: number;
  status: RunStatus;
  /** The root span's output. */
  output: JsonValue | null;
  costUsd: number | null;
  durationMs: number | null;
  scores: Record<string, number | string | null>;
  /** The decision path's option labels, repeats folded. */
  path: string[];
}

export interface CompareItem {
  itemId: string;
  input: JsonValue;
  expectedOutput: JsonValue | null;
  /** One run per experiment that ran the item (its first repetition), in the order of `ids`. */
  runs: CompareRun[];
  decisionsDiffer: boolean;
  firstDifference: { position: number; choices: Array<{ experimentId: string; label: string | null }> } | null;
}

export interface ExperimentComparison {
  experiments: Array<{ experiment: Experiment; summary: ExperimentSummary }>;
  items: CompareItem[];
  total: number;
  page: number;
  limit: number;
  totalPages: number;
}

