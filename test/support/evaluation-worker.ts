// A separate process that works the evaluation queue of a PostgreSQL database, for the
// crash test (lib/features/evaluators/crash.test.ts), which kills it with SIGKILL mid-run.
// Prints "running" once it has started a run. The environment (JUDGE_*,
// EVALUATOR_LEASE_SECONDS) comes from the test.
//   node --import tsx --conditions=react-server test/support/evaluation-worker.ts <postgresql:// URL>
import { systemContext } from '@/lib/core/context';
import { openDatabase } from '@/lib/db/open';
import { runEvaluations } from '@/lib/features/evaluators';

const url = process.argv[2];
if (!url) throw new Error('usage: evaluation-worker.ts <postgresql:// URL>');
const db = await openDatabase(url);
const ctx = systemContext(db, 'evaluation worker');
process.stdout.write('running\n');
for (;;) await runEvaluations(ctx, { budgetMs: 60_000 });
