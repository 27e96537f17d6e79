// Times the insights domain functions in process (no HTTP, no server) against an existing
// database, for the 24-hour and 30-day windows ending at its newest trace, unfiltered and
// with status=ERROR: 5 calls each, sorted ms. With CHECK=1 it also compares the 24-hour
// answers from rollups with the ones computed from the rows.
//   npx tsx --conditions=react-server scripts/bench/insights-inprocess.ts postgresql://localhost/crossroads
// Used to measure each step of the rollup work at 1M traces (docs/benchmarks.md, "Insights").
import { decisionsFromRollups, decisionsFromTraces } from '@/lib/insights/decisions';
import { overviewFromRollups } from '@/lib/insights/overview';
import { rollupPlan } from '@/lib/insights/rollups';
import { openDatabase } from '@/lib/storage/open';
import { systemContext } from '@/lib/context';

const url = process.argv[2];
if (!url) throw new Error('usage: insights-inprocess.ts <postgresql:// URL>');
const db = await openDatabase(url);
const [{ end }] = await db.sql.query<{ end: Date }>(`SELECT max("startedAt") + interval '1 millisecond' AS end FROM "Trace"`);
const to = new Date(end).toISOString();
const DAY = 86_400_000;

async function time<T>(label: string, call: () => Promise<T>, n = 5): Promise<T> {
  const ms: number[] = [];
  let out!: T;
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    out = await call();
    ms.push(performance.now() - started);
  }
  console.log(label.padEnd(24), ms.sort((a, b) => a - b).map((x) => x.toFixed(0)).join(' '));
  return out;
}

for (const [window, length, bucket] of [['24h', DAY, 'hour'], ['30d', 30 * DAY, 'day']] as const) {
  for (const status of [undefined, 'ERROR'] as const) {
    const params = { from: new Date(Date.parse(to) - length).toISOString(), to, bucket, ...(status ? { status } : {}) };
    const plan = rollupPlan(params, bucket)!;
    await time(`overview ${window} ${status ?? ''}`, () => overviewFromRollups(systemContext(db, 'bench'), params, plan));
    const fromRollups = await time(`decisions ${window} ${status ?? ''}`, () => decisionsFromRollups(systemContext(db, 'bench'), params, plan));
    if (process.env.CHECK && window === '24h') {
      const fromRows = await decisionsFromTraces(systemContext(db, 'bench'), params);
      console.log('  same as from the rows:', JSON.stringify(fromRows) === JSON.stringify(fromRollups));
    }
  }
}
await db.close();
