// The limits of datasets and their items (docs/evaluation.md lists them).
export const DATASET_LIMITS = {
  /** A dataset's name: letters, digits, '.', '_' and '-'. */
  namePattern: /^[A-Za-z0-9._-]{1,100}$/,
  descriptionLength: 10_000,
  /** Items one POST may add or update, all or nothing. */
  itemsPerRequest: 1_000,
  /** Expected decisions of one item. */
  expectedDecisions: 500,
} as const;
