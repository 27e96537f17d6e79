import type { JsonValue } from '@/lib/core/json';
import type { DecisionType } from '@/lib/features/traces/shared';

export interface Dataset {
  id: string;
  name: string;
  description: string | null;
  metadata: JsonValue | null;
  /** Items not archived. */
  itemCount: number;
  createdAt: string;
  updatedAt: string;
}

/** A decision the agent should take: the chosen option (labelled as everywhere), of a type when given. */
export interface ExpectedDecision {
  type?: DecisionType;
  chosen: JsonValue;
}

export interface DatasetItem {
  id: string;
  input: JsonValue;
  expectedOutput: JsonValue | null;
  expectedDecisions: ExpectedDecision[] | null;
  metadata: JsonValue | null;
  sourceTraceId: string | null;
  archived: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface CreateDatasetInput {
  name: string;
  description: string | null;
  metadata: JsonValue | null;
}

/** An item as sent: without an id, one is generated. */
export interface DatasetItemInput {
  id: string | null;
  input: JsonValue;
  expectedOutput: JsonValue | null;
  expectedDecisions: ExpectedDecision[] | null;
  metadata: JsonValue | null;
  sourceTraceId: string | null;
  archived: boolean;
}
