// lib/features/experiments: what the browser may import too.
export type { CompareItem, CompareRun, Experiment, ExperimentComparison, ExperimentSummary, PassCriterion } from './types';
export { EXPERIMENT_LIMITS } from './validate';
