// One evaluator on one run, for every kind but the judge (judge.ts): pure, so the runner
// and "Try on a trace" agree. Null: nothing to judge (no expectation to compare with).
// The config is read once per evaluator (a schema compiled once), then applied per run.
import { checkWith, compileSchema } from './json-schema';
import type { TraceFacts } from './facts';
import { evaluateRule, parseRuleConfig, valueAt } from './rules';
import type { EvaluationResult, EvaluatorKind } from './types';
import { isRuleKind, parseSchemaConfig } from './validate';
import type { JsonValue } from '@/lib/core/json';

export type RunEvaluator = (facts: TraceFacts) => EvaluationResult | null;

/** The evaluator of a kind and config (checked here: a VALIDATION error when invalid). */
export function evaluatorOf(kind: Exclude<EvaluatorKind, 'llm_judge'>, config: JsonValue): RunEvaluator {
  if (kind === 'json_schema') {
    const { schema, field } = parseSchemaConfig(config);
    const validate = compileSchema(schema);
    return (facts) => {
      const { valid, comment } = checkWith(validate, valueAt(facts.output, field));
      return { dataType: 'BOOLEAN', value: valid, comment, metadata: null };
    };
  }
  if (!isRuleKind(kind)) return () => null;
  const rule = parseRuleConfig(kind, config);
  return (facts) => {
    const score = evaluateRule(kind, rule, facts);
    return score && { ...score, metadata: null };
  };
}

export function evaluateWithoutJudge(kind: Exclude<EvaluatorKind, 'llm_judge'>, config: JsonValue, facts: TraceFacts): EvaluationResult | null {
  return evaluatorOf(kind, config)(facts);
}
