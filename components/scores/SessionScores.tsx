'use client';

import { useQuery } from '@tanstack/react-query';
import { scoreQueries } from '@/lib/client/scores';
import { ScoreBar } from './ScoreBar';

/** A session's own scores (its traces' scores show on each trace), with add, edit and delete. */
export function SessionScores({ sessionId }: { sessionId: string }) {
  const scores = useQuery(scoreQueries.session(sessionId));
  return (
    <section aria-labelledby="session-scores-title" data-testid="session-scores" className="flex min-w-0 flex-wrap items-start gap-2 text-sm">
      <h2 id="session-scores-title" className="text-muted">
        Scores
      </h2>
      {scores.isError ? (
        <p role="alert" className="text-red-800 dark:text-red-200">
          Could not load this session’s scores: {scores.error.message}
        </p>
      ) : (
        <ScoreBar target={{ sessionId }} scores={scores.data ?? []} label="this session" />
      )}
    </section>
  );
}
