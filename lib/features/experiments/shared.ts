// lib/features/experiments: what the browser may import too.
export type { CompareItem, CompareRun, Experiment, ExperimentComparison, ExperimentSummary, PassCriterion } from './types';
export { EXPERIMENT_LIMITS } from './validate';
export { decisionsMatch, expectedSteps, matchDecisions, type PathStep } from './decision-match';
