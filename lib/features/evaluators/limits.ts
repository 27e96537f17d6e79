// Every limit of evaluators, in one place (docs/evaluation.md lists them).
export const EVALUATOR_LIMITS = {
  /** Characters of a name. */
  nameLength: 100,
  /** Characters of an llm_judge prompt template. */
  promptLength: 20_000,
  /** llm_judge categories, and characters of each. */
  categories: 20,
  categoryLength: 100,
  /** Characters of the run's trajectory given to the judge: default and bounds. */
  trajectoryChars: { default: 20_000, min: 1_000, max: 200_000 },
  /** Characters of each of {{input}}, {{output}}, {{expected}} given to the judge. */
  payloadChars: 20_000,
  /** llm_judge calls per minute per evaluator (per server): default and bounds. */
  ratePerMinute: { default: 60, min: 1, max: 10_000 },
  /** Characters of a json_schema config's schema as JSON. */
  schemaChars: 100_000,
  /** Characters of a live target's query. */
  queryLength: 4_000,
  /** Evaluators in all. */
  evaluators: 100,
} as const;
