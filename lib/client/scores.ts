// React Query options and requests for scores and score configs: one factory per entity,
// and the writes the viewer makes (POST /api/scores, DELETE /api/scores/{id}, the config
// routes). Safe for client components: only types come from lib/scores.
import { queryOptions } from '@tanstack/react-query';
import type { ScoreConfigRecord, ScoreDataType, ScoreList, ScoreRecord, ScoreValue } from '@/lib/features/scores/shared';
import { fetchJson, sendJson } from './traces';

export type { ScoreConfigRecord, ScoreRecord };

/** What a score is attached to, as POST /api/scores names it. */
export type ScoreTargetRef =
  | { traceId: string }
  | { traceId: string; spanId: string }
  | { traceId: string; decisionPointId: string }
  | { sessionId: string };

export interface ScoreWrite {
  /** Given to update that score in place; absent for a new one. */
  id?: string;
  name: string;
  value: ScoreValue;
  dataType?: ScoreDataType;
  comment?: string | null;
}

export interface ScoreConfigInput {
  name: string;
  dataType: ScoreDataType;
  categories?: string[];
  min?: number | null;
  max?: number | null;
  description?: string | null;
}

const send = sendJson;

export const scoreQueries = {
  all: () => ['scores'] as const,
  /** A session's own scores (those on its traces show on the traces). */
  session: (sessionId: string) =>
    queryOptions({
      queryKey: [...scoreQueries.all(), 'session', sessionId] as const,
      queryFn: async ({ signal }) => {
        const q = new URLSearchParams({ sessionId, limit: '100' });
        const list = await fetchJson<ScoreList>(`/api/scores?${q}`, { signal });
        return list.scores.filter((s) => s.traceId === null);
      },
    }),
  configs: () =>
    queryOptions({
      queryKey: [...scoreQueries.all(), 'configs'] as const,
      queryFn: async ({ signal }) => (await fetchJson<{ configs: ScoreConfigRecord[] }>('/api/score-configs', { signal })).configs,
    }),
};

export const scoreRequests = {
  save: (target: ScoreTargetRef, score: ScoreWrite) => send<{ success: true; count: number }>('POST', '/api/scores', { scores: [{ ...target, ...score }] }),
  saveMany: (scores: Array<ScoreTargetRef & ScoreWrite>) => send<{ success: true; count: number }>('POST', '/api/scores', { scores }),
  remove: (id: string) => send<{ success: true }>('DELETE', `/api/scores/${encodeURIComponent(id)}`),
  createConfig: (input: ScoreConfigInput) => send<ScoreConfigRecord>('POST', '/api/score-configs', input),
  updateConfig: (id: string, patch: Partial<ScoreConfigInput>) => send<ScoreConfigRecord>('PATCH', `/api/score-configs/${encodeURIComponent(id)}`, patch),
  removeConfig: (id: string) => send<{ success: true }>('DELETE', `/api/score-configs/${encodeURIComponent(id)}`),
};

/** A score's value as read: thumbs for booleans, the number, the category. */
export function formatScoreValue(score: Pick<ScoreRecord, 'value' | 'dataType'>): string {
  if (score.dataType === 'BOOLEAN') return score.value === true ? 'yes' : 'no';
  if (typeof score.value === 'number') return Number.isInteger(score.value) ? String(score.value) : score.value.toFixed(3).replace(/0+$/, '');
  return String(score.value);
}
