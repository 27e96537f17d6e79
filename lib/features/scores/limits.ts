// Limits of a score (docs/api.md "Scores"). Beyond them a write is a 400 naming the field.
export const SCORE_LIMITS = {
  /** Characters of a score's or a config's name. */
  nameLength: 200,
  /** Characters of a CATEGORICAL value (and of a config's category). */
  categoryLength: 500,
  /** Characters of a comment. */
  commentLength: 10_000,
  /** Bytes of a score's metadata written as JSON. */
  metadataBytes: 65_536,
  /** Scores per POST /api/scores, and per trace of a JSON batch. */
  perRequest: 1_000,
  /** Categories of one config. */
  categoriesPerConfig: 100,
  /** Characters of a config's description. */
  descriptionLength: 2_000,
} as const;
