// A span event `crossroads.score` scores its span, or with `crossroads.score.decision_id`
// one of its trace's decision points. The value's attribute type gives the data type
// (double or int: NUMERIC, bool: BOOLEAN, string: CATEGORICAL) unless `.data_type` says.
// An event that does not make a valid score stays an ordinary event: nothing is lost.
import { isAppError } from '@/lib/core/errors';
import { validateScore, type ScoreInput } from '@/lib/features/scores/shared';
import type { AttributeValue, Attributes } from '@/lib/features/otlp/types';

export const SCORE_EVENT = 'crossroads.score';

export const SCORE_ATTRIBUTES = {
  name: 'crossroads.score.name',
  value: 'crossroads.score.value',
  comment: 'crossroads.score.comment',
  dataType: 'crossroads.score.data_type',
  id: 'crossroads.score.id',
  decisionId: 'crossroads.score.decision_id',
} as const;

const attr = (attributes: Attributes, key: string): AttributeValue | undefined => (Object.hasOwn(attributes, key) ? attributes[key] : undefined);

/**
 * The score an event carries, or null when it is not a valid one. `fallbackId` makes the
 * same event sent twice (exporters retry) the same score, updated rather than doubled.
 */
export function scoreOfEvent(attributes: Attributes, traceId: string, spanId: string, fallbackId: string): ScoreInput | null {
  const decisionId = attr(attributes, SCORE_ATTRIBUTES.decisionId);
  const dataType = attr(attributes, SCORE_ATTRIBUTES.dataType);
  const raw = {
    id: attr(attributes, SCORE_ATTRIBUTES.id) ?? fallbackId,
    ...(typeof decisionId === 'string' && decisionId !== '' ? { decisionPointId: decisionId } : { spanId }),
    name: attr(attributes, SCORE_ATTRIBUTES.name),
    value: attr(attributes, SCORE_ATTRIBUTES.value),
    comment: attr(attributes, SCORE_ATTRIBUTES.comment),
    dataType: typeof dataType === 'string' ? dataType.toUpperCase() : dataType,
  };
  try {
    return validateScore(raw, `${SCORE_EVENT} event`, traceId);
  } catch (err) {
    if (isAppError(err)) return null;
    throw err;
  }
}

/** The GenAI convention's evaluation result, as a span event on the span it evaluates. */
export const EVALUATION_EVENT = 'gen_ai.evaluation.result';

export const EVALUATION_ATTRIBUTES = {
  name: 'gen_ai.evaluation.name',
  value: 'gen_ai.evaluation.score.value',
  label: 'gen_ai.evaluation.score.label',
  explanation: 'gen_ai.evaluation.explanation',
} as const;

/**
 * The score a `gen_ai.evaluation.result` event carries: its name; its numeric value when
 * there is one (NUMERIC), else its label (CATEGORICAL); its explanation as the comment.
 * Not a valid score (no name, neither value nor label): it stays an ordinary event.
 */
export function scoreOfEvaluationEvent(attributes: Attributes, traceId: string, spanId: string, fallbackId: string): ScoreInput | null {
  const value = attr(attributes, EVALUATION_ATTRIBUTES.value);
  const label = attr(attributes, EVALUATION_ATTRIBUTES.label);
  const numeric = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)) ? Number(value) : undefined;
  const raw = {
    id: fallbackId,
    spanId,
    name: attr(attributes, EVALUATION_ATTRIBUTES.name),
    value: numeric ?? label,
    comment: attr(attributes, EVALUATION_ATTRIBUTES.explanation),
    dataType: numeric !== undefined ? 'NUMERIC' : 'CATEGORICAL',
  };
  try {
    return validateScore(raw, `${EVALUATION_EVENT} event`, traceId);
  } catch (err) {
    if (isAppError(err)) return null;
    throw err;
  }
}
