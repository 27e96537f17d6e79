// lib/features/evaluators: what the browser may import too (the rules are pure).
export { evaluateRule, parseRuleConfig, RULE_KINDS, type RuleConfig, type RuleKind, type RuleScore, type RunFacts } from './rules';
