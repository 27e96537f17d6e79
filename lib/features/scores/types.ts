// Scores as the API shows them. Safe to import from client components: no server code.
import type { JsonValue } from '@/lib/core/json';

export const SCORE_DATA_TYPES = ['NUMERIC', 'CATEGORICAL', 'BOOLEAN'] as const;
export type ScoreDataType = (typeof SCORE_DATA_TYPES)[number];

/** How a score came, set by the server: a key through /api/scores, a signed-in person, a batch or OTLP, a USER_FEEDBACK event, an evaluator. */
export const SCORE_SOURCES = ['API', 'ANNOTATION', 'SDK', 'FEEDBACK', 'EVAL'] as const;
export type ScoreSource = (typeof SCORE_SOURCES)[number];

export type ScoreValue = number | string | boolean;

/** Who wrote a score: a person (their name), a key (its name; API_KEYS for keys from the environment) or an evaluator (its name). */
export interface ScoreAuthor {
  kind: 'user' | 'key' | 'evaluator';
  name: string;
}

/** A stored score; only its target's own ids are set (a trace's score has sessionId null). */
export interface ScoreRecord {
  id: string;
  traceId: string | null;
  spanId: string | null;
  decisionPointId: string | null;
  sessionId: string | null;
  name: string;
  value: ScoreValue;
  dataType: ScoreDataType;
  comment: string | null;
  source: ScoreSource;
  author: ScoreAuthor;
  metadata: JsonValue;
  createdAt: string;
  updatedAt: string;
}

export interface ScoreList {
  scores: ScoreRecord[];
  total: number;
  page: number;
  limit: number;
  totalPages: number;
}

/** What a score of a name must be (GET /api/score-configs). */
export interface ScoreConfigRecord {
  id: string;
  name: string;
  dataType: ScoreDataType;
  /** CATEGORICAL: the allowed values (empty: any). */
  categories: string[];
  /** NUMERIC: inclusive bounds. */
  min: number | null;
  max: number | null;
  description: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A decision review: was the chosen option right (BOOLEAN), and which would have been (CATEGORICAL). */
export const DECISION_CORRECT = 'decision.correct';
export const DECISION_BETTER_OPTION = 'decision.better_option';
/** The score a USER_FEEDBACK event with a score, rating or thumbs becomes. */
export const USER_FEEDBACK_SCORE = 'user_feedback';
