// Datasets of cases an agent version is run over: the datasets and their items.
import 'server-only';
export { createDataset, deleteDataset, getDataset, listDatasets, type DatasetPage } from './datasets';
export { listItems, upsertItems, type DatasetItemPage } from './items';
export { DATASET_LIMITS } from './limits';
export type { CreateDatasetInput, Dataset, DatasetItem, DatasetItemInput, ExpectedDecision } from './types';
export { checkDatasetName, parseCreateDatasetBody, parseItem, parseItemsBody } from './validate';
export { parseUploadBody, type UploadFormat } from './upload';
