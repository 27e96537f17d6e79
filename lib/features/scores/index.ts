// Scores: judgments on traces, spans, decision points and sessions, and their configs.
import 'server-only';
export { saveScore, saveScoreGroupsAs, saveScores, saveScoresAs } from './save';
export { evaluatorWriter } from './author';
export { listScores, parseScoreListParams, type ScoreListParams } from './list';
export { deleteScore } from './delete';
export { parseScoresBody, validateScore, validateScoresBody, checkScoresFitConfigs, type ScoreInput, type ScoreTarget } from './validate';
export { scoresOfTraces, attachScores, type ScoresOfTrace } from './of-trace';
export { listScoreConfigs } from './configs/list';
export { createScoreConfig } from './configs/create';
export { updateScoreConfig } from './configs/update';
export { deleteScoreConfig } from './configs/delete';
export { parseConfigBody, parseConfigPatch, type ScoreConfigInput } from './configs/validate';
export type * from './types';
export { everyScore } from './of-trace';
export { BATCH_REWRITE_RULE, checkRewrites } from './rewrite';
export { scoreRow, type ScoreRow, upsertScoresSql } from './sql';
