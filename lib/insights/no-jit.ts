// PostgreSQL compiles a statement to machine code (JIT) when its estimated cost passes
// jit_above_cost. The insights statements' estimates pass it by orders of magnitude (a
// decision point's alternatives are costed as jsonb_array_elements' default 100 rows, and
// the buckets multiply that), and compiling their ~90 expressions with optimisation took
// 1-4 s at 100k traces: more than running them (docs/benchmarks.md, "Insights"). SET
// LOCAL keeps the setting to this one transaction; every other statement keeps JIT.
// (PGlite has no JIT; the setting exists there and changes nothing.)
import type { Db } from '@/lib/db';
import type { Prisma } from '@/lib/generated/prisma/client';

/** Runs one read statement in a transaction of its own, with JIT compilation off. */
export async function queryWithoutJit<T>(db: Db, query: Prisma.PrismaPromise<T>): Promise<T> {
  const [, result] = await db.$transaction([db.$executeRaw`SET LOCAL jit = off`, query]);
  return result;
}
