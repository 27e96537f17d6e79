// The evaluation queue survives a worker killed with SIGKILL in the middle of a run, on
// PostgreSQL (two processes sharing one database): a worker in another process claims
// rule and judge jobs and is killed while the judge is still answering; once the leases
// end, a worker here finishes the work. Every trace ends up with exactly one score per
// evaluator, nothing is lost, and only the jobs that were in flight ran again.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemContext } from '@/lib/core/context';
import { migrate, readMigrations } from '@/lib/db/migrate';
import { openDatabase, type Database } from '@/lib/db/open';
import { sql } from '@/lib/db/sql';
import { createEvaluator, runEvaluations } from '@/lib/features/evaluators';
import { ingestTraces } from '@/lib/features/ingest';
import { validateIngestBody } from '@/lib/features/ingest/shared';
import { makeTrace } from '@/test/support/fixtures';
import { startJudgeServer, type JudgeServer } from '@/test/support/judge-server';

const adminUrl = process.env.PG_TEST_ADMIN_URL;
const TRACES = 30;
const LEASE_SECONDS = 2;

describe.skipIf(!adminUrl)('the evaluation queue under a crash (PostgreSQL)', () => {
  let url: string;
  let dbName: string;
  let db: Database;
  let judge: JudgeServer;
  let child: ChildProcess | undefined;

  beforeAll(async () => {
    dbName = `test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    await admin.end();
    const u = new URL(adminUrl!);
    u.pathname = `/${dbName}`;
    url = u.toString();
    db = await openDatabase(url);
    await migrate(db.sql, await readMigrations());
    judge = await startJudgeServer();
    process.env.JUDGE_BASE_URL = judge.baseUrl;
    process.env.JUDGE_MODEL = 'gpt-4o-mini';
    process.env.EVALUATOR_LEASE_SECONDS = String(LEASE_SECONDS);
  });
  afterAll(async () => {
    child?.kill('SIGKILL');
    delete process.env.JUDGE_BASE_URL;
    delete process.env.JUDGE_MODEL;
    delete process.env.EVALUATOR_LEASE_SECONDS;
    await judge?.close();
    await db?.close();
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.end();
  });

  it('loses nothing and scores nothing twice when a worker is killed mid-run', async () => {
    const ctx = systemContext(db, 'crash test');
    const rule = await createEvaluator(ctx, { name: 'cheap', kind: 'max_cost', config: { max: 1 }, scoreName: 'cheap', target: { on: 'live', dataset: null, query: '', sampleRate: 1 }, enabled: true });
    const judged = await createEvaluator(ctx, { name: 'judge', kind: 'llm_judge', config: { prompt: 'Rate {{output}}' }, scoreName: 'quality', target: { on: 'live', dataset: null, query: '', sampleRate: 1 }, enabled: true });
    const traces = Array.from({ length: TRACES }, (_, i) => makeTrace({ id: `crash-${i}`, status: 'COMPLETED', totalCost: 0.01 }));
    await ingestTraces(ctx, validateIngestBody({ traces }, { maxBatchTraces: 100, maxChildrenPerTrace: 100 }));

    // The judge never answers the killed worker's calls.
    let hung = 0;
    judge.reply(() => (hung < 4 ? (hung++, { hang: true }) : { content: '{"score": 0.5, "reasoning": "ok"}' }));
    // Node itself runs the worker (no npx or tsx launcher between), so SIGKILL reaches it.
    child = spawn(process.execPath, ['--import', 'tsx', '--conditions=react-server', 'test/support/evaluation-worker.ts', url], { stdio: ['ignore', 'pipe', 'inherit'], env: process.env });
    await expect.poll(() => judge.requests.length, { timeout: 60_000, interval: 100 }).toBe(4);
    // The rule jobs were claimed and stored in that run, before the judge's turn.
    await expect.poll(async () => (await db.sql.query(sql`SELECT 1 FROM "EvaluationJob" WHERE "evaluatorId" = ${rule.id} AND "state" = 'done'`)).length, { timeout: 30_000 }).toBe(TRACES);
    child.kill('SIGKILL');
    await new Promise((resolve) => child!.once('exit', resolve));
    const running = await db.sql.query<{ traceId: string }>(sql`SELECT "traceId" FROM "EvaluationJob" WHERE "evaluatorId" = ${judged.id} AND "state" = 'running'`);
    expect(running).toHaveLength(4);

    // Here, a worker takes over; the four held jobs come back once their leases end.
    await expect
      .poll(
        async () => {
          await runEvaluations(ctx, { budgetMs: 30_000 });
          return (await db.sql.query(sql`SELECT 1 FROM "EvaluationJob" WHERE "state" = 'done'`)).length;
        },
        { timeout: 60_000, interval: 500 },
      )
      .toBe(2 * TRACES);

    const perTrace = await db.sql.query<{ traceId: string; names: string[] }>(
      sql`SELECT "traceId", array_agg("name" ORDER BY "name") AS names FROM "Score" WHERE "source" = 'EVAL' GROUP BY "traceId" ORDER BY "traceId"`,
    );
    expect(perTrace).toHaveLength(TRACES);
    for (const row of perTrace) expect(row.names).toEqual(['cheap', 'quality']);
    const attempts = await db.sql.query<{ attempts: number; n: number }>(
      sql`SELECT "attempts", count(*)::int AS n FROM "EvaluationJob" WHERE "evaluatorId" = ${judged.id} GROUP BY "attempts" ORDER BY "attempts"`,
    );
    // The four in flight ran again, once; the rest once.
    expect(attempts).toEqual([
      { attempts: 1, n: TRACES - 4 },
      { attempts: 2, n: 4 },
    ]);
    expect(judge.requests).toHaveLength(TRACES + 4);
  });
});
