// Evaluators: rules (and, to come, an LLM judge) that score every run without a person.
import 'server-only';
export { evaluateRule, parseRuleConfig, RULE_KINDS, type RuleConfig, type RuleKind, type RuleScore, type RunFacts } from './rules';
