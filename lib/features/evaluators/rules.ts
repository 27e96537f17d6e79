// The rule evaluators: each reads one run (its output, cost, duration and decision path)
// against its item's expectations or the evaluator's config, and gives one score. Pure, so
// the live and experiment runners and "Try on a trace" agree. A rule that has nothing to
// judge (no expected output to match) gives null: no score, rather than a wrong one.
import { AppError } from '@/lib/core/errors';
import type { JsonValue } from '@/lib/core/json';
import type { ExpectedDecision } from '@/lib/features/datasets/shared';
import { expectedSteps, matchDecisions, type PathStep } from '@/lib/features/experiments/shared';

export const RULE_KINDS = ['exact_match', 'contains', 'regex', 'expected_decisions', 'max_cost', 'max_duration'] as const;
export type RuleKind = (typeof RULE_KINDS)[number];

export interface RuleConfig {
  /** exact_match, contains: a dot path into the output to compare (e.g. "answer"). */
  field?: string;
  /** exact_match, contains: the value to look for instead of the item's expected output. */
  value?: JsonValue;
  /** contains, regex: compare without regard to case. */
  ignoreCase?: boolean;
  /** regex: the pattern (JavaScript syntax). */
  pattern?: string;
  /** max_cost (USD), max_duration (ms). */
  max?: number;
}

/** What a rule reads of one run. */
export interface RunFacts {
  output: JsonValue | null;
  expectedOutput: JsonValue | null;
  expectedDecisions: ExpectedDecision[] | null;
  steps: PathStep[];
  costUsd: number | null;
  durationMs: number | null;
}

export interface RuleScore {
  dataType: 'BOOLEAN' | 'NUMERIC';
  value: boolean | number;
  comment: string;
}

function fail(message: string): never {
  throw new AppError('VALIDATION', message);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A rule's config as sent, checked for its kind. */
export function parseRuleConfig(kind: RuleKind, raw: unknown): RuleConfig {
  const config = raw === undefined || raw === null ? {} : raw;
  if (!isObject(config)) fail('config must be an object');
  const out: RuleConfig = {};
  if (config.field !== undefined) {
    if (typeof config.field !== 'string' || config.field === '') fail('config.field must be a non-empty dot path');
    out.field = config.field;
  }
  if (config.value !== undefined) out.value = config.value as JsonValue;
  if (config.ignoreCase !== undefined) {
    if (typeof config.ignoreCase !== 'boolean') fail('config.ignoreCase must be true or false');
    out.ignoreCase = config.ignoreCase;
  }
  if (kind === 'regex') {
    if (typeof config.pattern !== 'string' || config.pattern === '') fail('config.pattern is required for regex');
    try {
      new RegExp(config.pattern);
    } catch (err) {
      fail(`config.pattern is not a valid regular expression: ${(err as Error).message}`);
    }
    out.pattern = config.pattern;
  }
  if (kind === 'max_cost' || kind === 'max_duration') {
    if (typeof config.max !== 'number' || !Number.isFinite(config.max) || config.max < 0) fail(`config.max is required for ${kind}: a number from 0`);
    out.max = config.max;
  }
  return out;
}

/** The value at a dot path ("answer", "choices.0.text"), or undefined. */
export function valueAt(value: JsonValue | null, path: string | undefined): JsonValue | null | undefined {
  if (path === undefined) return value;
  let node: unknown = value;
  for (const key of path.split('.')) {
    if (Array.isArray(node) && /^\d+$/.test(key)) node = node[Number(key)];
    else if (isObject(node)) node = node[key];
    else return undefined;
  }
  return node as JsonValue | undefined;
}

/** JSON with object keys sorted: two equal values write the same text. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isObject(value)) {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

const asText = (value: JsonValue | null | undefined) => (typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value));

const cut = (text: string, n = 80) => (text.length > n ? `${text.slice(0, n - 1)}…` : text);

/** One run's score under a rule, or null when there is nothing to judge it against. */
export function evaluateRule(kind: RuleKind, config: RuleConfig, run: RunFacts): RuleScore | null {
  const got = valueAt(run.output, config.field);
  switch (kind) {
    case 'exact_match': {
      const want = config.value !== undefined ? config.value : run.expectedOutput;
      if (want === null || want === undefined) return null;
      const same = canonical(got) === canonical(want);
      return { dataType: 'BOOLEAN', value: same, comment: same ? 'The output equals the expected one.' : `Expected ${cut(canonical(want))}, got ${cut(canonical(got ?? null))}.` };
    }
    case 'contains': {
      const want = config.value !== undefined ? config.value : run.expectedOutput;
      if (want === null || want === undefined) return null;
      const norm = (t: string) => (config.ignoreCase ? t.toLowerCase() : t);
      const found = norm(asText(got)).includes(norm(asText(want)));
      return { dataType: 'BOOLEAN', value: found, comment: `${found ? 'Contains' : 'Does not contain'} ${cut(JSON.stringify(asText(want)))}.` };
    }
    case 'regex': {
      const matched = new RegExp(config.pattern!, config.ignoreCase ? 'i' : '').test(asText(got));
      return { dataType: 'BOOLEAN', value: matched, comment: `${matched ? 'Matches' : 'Does not match'} /${cut(config.pattern!)}/.` };
    }
    case 'expected_decisions': {
      if (!run.expectedDecisions?.length) return null;
      const expected = expectedSteps(run.expectedDecisions);
      const { matched, of, firstWrong } = matchDecisions(run.steps, expected);
      const value = of === 0 ? 1 : matched / of;
      if (firstWrong === null) return { dataType: 'NUMERIC', value, comment: `All ${of} decisions as expected.` };
      const chose = run.steps[firstWrong]?.label ?? '(nothing)';
      const wanted = expected[firstWrong]?.label ?? '(nothing)';
      return { dataType: 'NUMERIC', value, comment: `${matched} of ${of} decisions as expected; decision ${firstWrong + 1} chose ${chose}, expected ${wanted}.` };
    }
    case 'max_cost': {
      if (run.costUsd === null) return null;
      const ok = run.costUsd <= config.max!;
      return { dataType: 'BOOLEAN', value: ok, comment: `Cost $${run.costUsd} ${ok ? 'within' : 'over'} $${config.max}.` };
    }
    case 'max_duration': {
      if (run.durationMs === null) return null;
      const ok = run.durationMs <= config.max!;
      return { dataType: 'BOOLEAN', value: ok, comment: `Took ${run.durationMs} ms, ${ok ? 'within' : 'over'} ${config.max} ms.` };
    }
  }
}
