// Sessions as the API returns them: a session is the traces that share a sessionId.
// Client-safe (types only).
import type { JsonValue, RunStatus, TimeRange } from '@/lib/features/traces/shared';

/** One session's figures, over its traces (of the user asked for, with `userId`). */
export interface SessionSummary {
  id: string;
  /** How many traces it has. */
  traces: number;
  /** How many of them have status ERROR. */
  errorTraces: number;
  /** ISO 8601 UTC: when its first and latest traces started. */
  firstStartedAt: string;
  lastStartedAt: string;
  /** Sums over its traces; null when no trace has one. */
  totalCost: number | null;
  totalTokens: number | null;
  /** GET /api/sessions only: the user of its latest trace that names one (of the user asked for, with `userId`), or null. */
  userId?: string | null;
  /** GET /api/sessions only: its first trace's input as one line of text (as the trace list previews it), or null. */
  firstInput?: string | null;
}

export interface SessionList {
  sessions: SessionSummary[];
  total: number;
  page: number;
  limit: number;
  totalPages: number;
}

export interface SessionListParams {
  page: number;
  limit: number;
  /** ISO 8601 UTC: sessions whose latest trace started at or after it... */
  from?: string;
  /** ...and before it: latest activity in [from, to). */
  to?: string;
  /** Only this user's traces. */
  userId?: string;
  /** Latest activity in a window ending now (`range=1h`), resolved when each request is served; not with from or to. */
  range?: TimeRange;
  /** Case-insensitive substring of the session id. */
  search?: string;
  /** The session's status over its traces: ERROR when one failed, else RUNNING when one runs, else COMPLETED. */
  status?: RunStatus;
}

/** A turn of the conversation: one trace, with what went in and what came out. */
export interface SessionTrace {
  id: string;
  name: string;
  status: RunStatus;
  startedAt: string;
  endedAt: string | null;
  /** The root span's input, else the first model call's. */
  input: JsonValue;
  /** The root span's output, else the last model call's. */
  output: JsonValue;
  totalCost: number | null;
  totalTokens: number | null;
}

export interface SessionDetail {
  session: SessionSummary;
  /** Oldest first. */
  traces: SessionTrace[];
}
