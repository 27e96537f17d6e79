// lib/features/datasets: what the browser may import too (types, limits, parsing of items).
export { DATASET_LIMITS } from './limits';
export type { Dataset, DatasetItem, DatasetItemInput, ExpectedDecision } from './types';
export { checkDatasetName, parseItem } from './validate';
