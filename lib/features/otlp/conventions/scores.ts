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
