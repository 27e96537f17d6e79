// A USER_FEEDBACK event whose metadata holds a `score` or `rating` (a number: NUMERIC) or
// `thumbs` ("up": true, "down": false: BOOLEAN) also becomes a FEEDBACK score named
// user_feedback on the event's span (the trace when it names none), with the metadata's
// `comment`. The event stays as it is. Its id is derived from the event's, so the same
// event stored again (an OTLP retry) updates the score instead of adding one.
import { NUMBER_LIMITS } from '@/lib/core/limits';
import { SCORE_LIMITS } from './limits';
import { USER_FEEDBACK_SCORE, type ScoreValue } from './types';
import type { ScoreInput } from './validate';

interface FeedbackEvent {
  id: string;
  spanId: string | null;
  type: string;
  metadata: unknown;
}

function valueOf(metadata: Record<string, unknown>): ScoreValue | null {
  for (const key of ['score', 'rating']) {
    const value = metadata[key];
    // Beyond a score's bound it is no rating: the event stays, without a score.
    if (typeof value === 'number' && Number.isFinite(value) && Math.abs(value) <= NUMBER_LIMITS.score) return value;
  }
  const thumbs = metadata.thumbs;
  if (thumbs === 'up') return true;
  if (thumbs === 'down') return false;
  return null;
}

/** The feedback score of an event of trace `traceId`, or null. `hasSpan` says whether a span id is one of the trace's. */
export function feedbackScore(traceId: string, event: FeedbackEvent, hasSpan: (spanId: string) => boolean): ScoreInput | null {
  if (event.type !== 'USER_FEEDBACK') return null;
  const metadata = event.metadata;
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) return null;
  const value = valueOf(metadata as Record<string, unknown>);
  if (value === null) return null;
  const comment = (metadata as Record<string, unknown>).comment;
  const onSpan = event.spanId !== null && hasSpan(event.spanId);
  return {
    id: `feedback:${traceId}:${event.id}`,
    target: onSpan ? { kind: 'span', traceId, spanId: event.spanId! } : { kind: 'trace', traceId },
    name: USER_FEEDBACK_SCORE,
    value,
    dataType: typeof value === 'number' ? 'NUMERIC' : 'BOOLEAN',
    explicitType: false,
    // Longer comments are cut to the limit rather than losing the feedback.
    comment: typeof comment === 'string' && !comment.includes('\u0000') ? comment.slice(0, SCORE_LIMITS.commentLength) : null,
    metadata: null,
    path: `event ${event.id}`,
  };
}
