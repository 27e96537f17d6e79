// lib/features/evaluators: what the browser may import too (types, limits; the rules are pure).
export { evaluateRule, parseRuleConfig, RULE_KINDS, type RuleConfig, type RuleKind, type RuleScore, type RunFacts } from './rules';
export { EVALUATOR_KINDS, TARGETS, type Evaluator, type EvaluatorJobCounts, type EvaluatorKind, type EvaluatorTarget, type EvaluationResult, type TargetOn } from './types';
export { EVALUATOR_LIMITS } from './limits';
