// The review queue's filters, from the URL as the viewer keeps them: decision `type`, chosen
// `option` (its label), trace `name`, trace `status`, and `from`/`to` on the trace's startedAt.
import { MAX_LABEL_CHARS } from '@/lib/features/insights/shared';
import { dateParam, enumParam, invalidParam, textParam } from '@/lib/features/query';
import { DECISION_TYPES, RUN_STATUSES, type DecisionType, type RunStatus } from '@/lib/features/traces/shared';

export interface ReviewFilters {
  type?: DecisionType;
  option?: string;
  name?: string;
  status?: RunStatus;
  from?: string;
  to?: string;
}

export function parseReviewFilters(query: URLSearchParams): ReviewFilters {
  const filters: ReviewFilters = {};
  const type = enumParam<DecisionType>(query, 'type', DECISION_TYPES);
  if (type) filters.type = type;
  const option = textParam(query, 'option');
  if (option !== undefined) {
    if (Array.from(option).length > MAX_LABEL_CHARS) throw invalidParam('option', `a label is at most ${MAX_LABEL_CHARS} characters`);
    filters.option = option;
  }
  const name = textParam(query, 'name');
  if (name !== undefined) filters.name = name;
  const status = enumParam<RunStatus>(query, 'status', RUN_STATUSES);
  if (status) filters.status = status;
  for (const bound of ['from', 'to'] as const) {
    const value = dateParam(query, bound);
    if (value !== undefined) filters[bound] = value;
  }
  return filters;
}
