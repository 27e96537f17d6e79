// What a database error means, as node-postgres and PGlite both report it (SQLSTATE codes).

/** A unique-constraint violation (23505). */
export function isUniqueViolation(err: unknown): boolean {
  return (err as { code?: unknown } | null)?.code === '23505';
}
