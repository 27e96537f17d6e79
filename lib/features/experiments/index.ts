// Experiments: one run of a dataset by one version of an agent, its runs linked to items,
// its summary, and experiments compared item by item and decision by decision.
import 'server-only';
export { compareExperiments, firstDifference } from './compare';
export { createExperiment } from './create';
export { matchDecisions, expectedSteps } from './decision-match';
export { datasetExperiments, getExperiment } from './read';
export { checkTraceLinks, linkRuns, linkStoredRuns, storeRunLinks, type ExperimentLink } from './runs';
export type { CompareItem, CompareRun, CreateExperimentInput, Experiment, ExperimentComparison, ExperimentSummary, PassCriterion, RunLink } from './types';
export { EXPERIMENT_LIMITS, parseCompareIds, parseCreateExperimentBody, parseRunsBody, repetitionField } from './validate';
