// An executor that runs `before(text)` ahead of each statement it is given, in its
// transactions too: tests use it to make another connection act at a chosen statement.
import type { SqlExecutor } from '@/lib/db/executor';
import { isSql, type Sql } from '@/lib/db/sql';

const textOf = (statement: Sql | string) => (isSql(statement) ? statement.text : statement);

export function interceptStatements(sql: SqlExecutor, before: (text: string) => Promise<void>): SqlExecutor {
  const query = async (statement: Sql | string, ...rest: unknown[]) => {
    await before(textOf(statement));
    return (sql.query as (...args: unknown[]) => Promise<unknown[]>)(statement, ...rest);
  };
  const queryBytes = async (statement: Sql | string, params?: unknown[]) => {
    await before(textOf(statement));
    return (sql.queryBytes as (...args: unknown[]) => Promise<Array<Array<Uint8Array | null>>>)(statement, params);
  };
  return {
    exec: (text) => sql.exec(text),
    query: query as SqlExecutor['query'],
    queryBytes: queryBytes as SqlExecutor['queryBytes'],
    transaction: (fn) => sql.transaction((tx) => fn(interceptStatements(tx, before))),
  };
}

/** A recorded query call's text and parameters, whichever form it was made in. */
export function statementOf([statement, params]: readonly [Sql | string, unknown?, unknown?]): { text: string; values: unknown[] } {
  return isSql(statement) ? { text: statement.text, values: statement.values } : { text: statement, values: (params as unknown[] | undefined) ?? [] };
}
