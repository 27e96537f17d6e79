// PostgreSQL compiles a statement to machine code (JIT) when its estimated cost passes
// jit_above_cost. The insights statements' estimates pass it by orders of magnitude (a
// decision point's alternatives are costed as jsonb_array_elements' default 100 rows, and
// the buckets multiply that), and compiling their ~90 expressions with optimisation took
// 1-4 s at 100k traces: more than running them (docs/benchmarks.md, "Insights"). SET
// LOCAL keeps the setting to this one transaction; every other statement keeps JIT.
// (PGlite has no JIT; the setting exists there and changes nothing.)
//
// The transaction is the raw driver's: unbounded in time (Prisma's bounded one to 2 s to
// start and 5 s to finish, which turned a large window that answers late into an error),
// and on PGlite's one connection a second call waits for the first.
import 'server-only';
import type { SqlExecutor } from '@/lib/db/executor';
import { sql, type Sql } from '@/lib/db/sql';

// The same transaction gives the statement more memory for its sorts and hashes than the
// default 4 MB per node: over 30 days at 1M traces the duration percentiles sort ~330k
// values and the rates group ~330k trace names (nearly unique in the bench's data), and
// both spilled to disk (temp files) at 4 MB.
export const INSIGHTS_WORK_MEM = '64MB';

/** Runs one read statement in a transaction of its own, with JIT compilation off and INSIGHTS_WORK_MEM. */
export async function queryWithoutJit<T>(db: SqlExecutor, statement: Sql): Promise<T[]> {
  return db.transaction(async (tx) => {
    await tx.query(sql`SELECT set_config('jit', 'off', true), set_config('work_mem', ${INSIGHTS_WORK_MEM}, true)`);
    return tx.query<T>(statement);
  });
}
