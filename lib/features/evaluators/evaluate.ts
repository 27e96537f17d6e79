// One evaluator on one run, for every kind but the judge (judge.ts): pure, so the runner
// and "Try on a trace" agree. Null: nothing to judge (no expectation to compare with).
import { checkAgainstSchema } from './json-schema';
import type { TraceFacts } from './facts';
import { evaluateRule, parseRuleConfig, valueAt } from './rules';
import type { EvaluationResult, EvaluatorKind } from './types';
import { isRuleKind, parseSchemaConfig } from './validate';
import type { JsonValue } from '@/lib/core/json';

export function evaluateWithoutJudge(kind: Exclude<EvaluatorKind, 'llm_judge'>, config: JsonValue, facts: TraceFacts): EvaluationResult | null {
  if (kind === 'json_schema') {
    const { schema, field } = parseSchemaConfig(config);
    const { valid, comment } = checkAgainstSchema(schema, valueAt(facts.output, field));
    return { dataType: 'BOOLEAN', value: valid, comment, metadata: null };
  }
  if (!isRuleKind(kind)) return null;
  const score = evaluateRule(kind, parseRuleConfig(kind, config), facts);
  return score && { ...score, metadata: null };
}
