// Saved views' limits (docs/api.md "Saved views").
export const VIEW_LIMITS = {
  /** Characters of a view's name, after trimming. */
  nameLength: 100,
  /** Characters of its query. */
  queryLength: 4_000,
  /** Columns, and characters of each column key. */
  columns: 50,
  columnKeyLength: 64,
  /** Bytes of a POST /api/views body. */
  bodyBytes: 16_384,
  /** Views per owner. */
  perOwner: 100,
} as const;
