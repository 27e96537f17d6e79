// traceErrorCounts counts each trace's failed spans and ERROR events, on every test database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/lib/db/open';
import { testContext } from '@/test/support/context';
import { testDatabases } from '@/test/support/databases';
import { ingestWrongTurns, RUN_X } from '@/test/support/wrong-turns';
import { traceErrorCounts } from './error-counts';

describe.each(testDatabases())('trace error counts on $name', ({ open }) => {
  let db: Database;
  beforeAll(async () => {
    db = await open();
    await ingestWrongTurns(db);
  });
  afterAll(async () => {
    await db.close();
  });

  it('counts failed spans and ERROR events per trace, 0 for a clean or unknown one', async () => {
    const counts = await traceErrorCounts(testContext(db), [RUN_X, 'ok-1', 'kb-4', 'unknown']);
    // run-x: the root span, the search_kb span and one ERROR event.
    expect(Object.fromEntries(counts)).toEqual({ [RUN_X]: 3, 'ok-1': 0, 'kb-4': 3, unknown: 0 });
    expect((await traceErrorCounts(testContext(db), [])).size).toBe(0);
  });
});
