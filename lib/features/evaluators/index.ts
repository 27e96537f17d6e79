// Evaluators: rules and an LLM judge that score runs without a person, live or on the runs
// of a dataset's experiments, through a durable queue in the database.
import 'server-only';
export { evaluateRule, parseRuleConfig, RULE_KINDS, type RuleConfig, type RuleKind, type RuleScore, type RunFacts } from './rules';
export { createEvaluator, deleteEvaluator, evaluatorInputOf, evaluatorJobCounts, getEvaluator, listEvaluators, updateEvaluator } from './evaluators';
export { parseEvaluatorBody, parseEvaluatorPatch, parseTryBody } from './validate';
export { runEvaluations, evaluationScoreId, backoffMs, resetJudgeRateLimits, type EvaluationRunReport } from './run';
export { evaluationLagMs, MAX_ATTEMPTS } from './queue';
export { tryEvaluator, type TryResult } from './try';
export { evaluateExperiment } from './experiments';
export { renderPrompt, readAnswer } from './judge';
export { EVALUATOR_LIMITS } from './limits';
export type * from './types';
