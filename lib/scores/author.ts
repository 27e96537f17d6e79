// Who wrote a score and how it came (its source), from the actor a write runs as. The
// client never chooses either.
import type { Actor, Principal } from '@/lib/access/decide';
import type { ScoreSource } from './types';

export interface ScoreWriter {
  source: ScoreSource;
  authorKind: 'user' | 'key';
  authorName: string;
  /** The person's id, so they may delete their own annotations. */
  authorUserId: string | null;
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
  if (actor.kind === 'user') return { source: 'ANNOTATION', authorKind: 'user', authorName: actor.name || actor.email, authorUserId: actor.userId };
  // Open mode without a key: the viewer, used by someone the server cannot name.
  if (actor.kind === 'open' && principal.credential.kind !== 'key') {
    return { source: 'ANNOTATION', authorKind: 'user', authorName: 'open mode', authorUserId: null };
  }
  return { source: 'API', authorKind: 'key', authorName: keyName(actor), authorUserId: null };
}

/** A score that came with traces (a JSON batch, OTLP): SDK, or FEEDBACK when derived from a USER_FEEDBACK event. */
export function ingestWriter(actor: Actor, source: 'SDK' | 'FEEDBACK'): ScoreWriter {
  return { source, authorKind: 'key', authorName: keyName(actor), authorUserId: null };
}
