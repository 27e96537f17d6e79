// Who wrote a score and how it came (its source), from the actor a write runs as. The
// client never chooses either.
import { actorKey, type Actor, type Principal } from '@/lib/core/access/decide';
import type { ScoreSource } from './types';

export interface ScoreWriter {
  source: ScoreSource;
  authorKind: 'user' | 'key' | 'evaluator';
  authorName: string;
  /** The person's id, so they may delete their own annotations. */
  authorUserId: string | null;
  /** Who wrote it (actorKey), so they may rewrite it by id; null: nobody in particular. */
  authorKey: string | null;
}

/** The name a score shows for its author: the person's name, the key's name (API_KEYS for keys from the environment). */
function keyName(actor: Actor): string {
  switch (actor.kind) {
    case 'key':
      return actor.keyId === null ? 'API_KEYS' : (actor.keyName ?? actor.keyId);
    case 'open':
      // Open mode looks no key up, so none has a name.
      return 'open mode';
    case 'system':
      return actor.task;
    case 'user':
      return actor.name;
  }
}

/** A score written through /api/scores (or SOAP's SCORE): a person's is an ANNOTATION, a key's comes from the API. */
export function apiWriter(actor: Actor, principal: Principal): ScoreWriter {
  const authorKey = actorKey(actor);
  if (actor.kind === 'user') return { source: 'ANNOTATION', authorKind: 'user', authorName: actor.name || actor.email, authorUserId: actor.userId, authorKey };
  // Open mode without a key: the viewer, used by someone the server cannot name.
  if (actor.kind === 'open' && principal.credential.kind !== 'key') {
    return { source: 'ANNOTATION', authorKind: 'user', authorName: 'open mode', authorUserId: null, authorKey };
  }
  return { source: 'API', authorKind: 'key', authorName: keyName(actor), authorUserId: null, authorKey };
}

/** A score that came with traces (a JSON batch, OTLP): SDK, or FEEDBACK when derived from a USER_FEEDBACK event. */
export function ingestWriter(actor: Actor, source: 'SDK' | 'FEEDBACK'): ScoreWriter {
  return { source, authorKind: 'key', authorName: keyName(actor), authorUserId: null, authorKey: actorKey(actor) };
}

/** A score an evaluator wrote: its own author key, so only it (or an admin) rewrites it. */
export function evaluatorWriter(evaluator: { id: string; name: string }): ScoreWriter {
  return { source: 'EVAL', authorKind: 'evaluator', authorName: evaluator.name, authorUserId: null, authorKey: `evaluator:${evaluator.id}` };
}

/**
 * Whether a score stored as written by `stored` may be rewritten by `writer`: by its own
 * author, or by whoever may delete any score (`anyAuthor`: an admin, a key with delete).
 * A score of no known author (null) only by the latter.
 */
export function mayRewrite(stored: string | null, writer: string | null, anyAuthor: boolean): boolean {
  return anyAuthor || (stored !== null && stored === writer);
}
