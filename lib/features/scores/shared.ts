// lib/features/scores: what the browser may import too (types and pure helpers, no server module).
export { ingestWriter, type ScoreWriter } from './author';
export { describeScoreCondition, MAX_SCORE_FILTERS, parseScoreCondition, SCORE_FILTER_PREFIX, scoreNumber } from './condition';
export { readConfigsByName } from './configs/read';
export { feedbackScore } from './feedback';
export { SCORE_LIMITS } from './limits';
export { DECISION_BETTER_OPTION, DECISION_CORRECT, SCORE_DATA_TYPES, SCORE_SOURCES, type ScoreConfigRecord, type ScoreDataType, type ScoreList, type ScoreRecord, type ScoreValue } from './types';
export { checkScoresFitConfigs, checkUniqueIds, type ScoreInput, validateScore } from './validate';
