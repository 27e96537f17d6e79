// React Query options and requests for evaluators (/api/evaluators) and "Run evaluators" on
// an experiment. Safe for client components: only types come from the feature.
import { queryOptions } from '@tanstack/react-query';
import type { EvaluationResult, Evaluator, EvaluatorJobCounts, EvaluatorKind, EvaluatorTarget } from '@/lib/features/evaluators/shared';
import { fetchJson, sendJson } from './traces';

export type { Evaluator, EvaluatorJobCounts };

export interface EvaluatorWrite {
  name: string;
  kind: EvaluatorKind;
  config: unknown;
  scoreName: string;
  target: Partial<EvaluatorTarget> & { on: EvaluatorTarget['on'] };
  enabled: boolean;
}

export interface TryAnswer {
  result: EvaluationResult | null;
  note: string | null;
}

const one = (id: string) => `/api/evaluators/${encodeURIComponent(id)}`;

export const evaluatorQueries = {
  all: () => ['evaluators'] as const,
  list: () =>
    queryOptions({
      queryKey: [...evaluatorQueries.all(), 'list'] as const,
      queryFn: async ({ signal }) => (await fetchJson<{ evaluators: Evaluator[] }>('/api/evaluators', { signal })).evaluators,
    }),
  jobs: (id: string) =>
    queryOptions({
      queryKey: [...evaluatorQueries.all(), 'jobs', id] as const,
      queryFn: async ({ signal }) => (await fetchJson<{ jobs: EvaluatorJobCounts }>(one(id), { signal })).jobs,
    }),
};

export const evaluatorRequests = {
  create: (body: EvaluatorWrite) => sendJson<{ evaluator: Evaluator }>('POST', '/api/evaluators', body),
  update: (id: string, body: Partial<EvaluatorWrite>) => sendJson<{ evaluator: Evaluator }>('PATCH', one(id), body),
  remove: (id: string) => sendJson<{ success: true }>('DELETE', one(id)),
  tryOn: (traceId: string, evaluator: Pick<EvaluatorWrite, 'kind' | 'config' | 'target'> | { id: string }) =>
    sendJson<TryAnswer>('POST', '/api/evaluators/try', 'id' in evaluator ? { traceId, evaluatorId: evaluator.id } : { traceId, evaluator }),
  runOnExperiment: (experimentId: string) => sendJson<{ queued: number; evaluators: number }>('POST', `/api/experiments/${encodeURIComponent(experimentId)}/evaluate`),
};
