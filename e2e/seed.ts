// Seeds a running server with demo traces for looking at the viewer by hand:
//   npx tsx e2e/seed.ts http://127.0.0.1:3301 <api key>
import { agentTrace, bigTrace, largePayload, runId, simpleTrace, type TraceInput } from './fixtures';

async function post(base: string, key: string, traces: TraceInput[]): Promise<void> {
  const res = await fetch(`${base}/api/traces`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ traces }),
  });
  if (!res.ok) throw new Error(`POST /api/traces: ${res.status} ${await res.text()}`);
}

async function main() {
  const [base = 'http://127.0.0.1:3301', key = 'dev-key'] = process.argv.slice(2);
  const r = runId();
  const names = ['checkout assistant', 'support triage', 'code review bot', 'research agent', 'travel planner'];
  const statuses = ['COMPLETED', 'COMPLETED', 'ERROR', 'RUNNING', 'COMPLETED'] as const;
  const traces: TraceInput[] = [];
  for (let i = 0; i < 45; i++) {
    traces.push(
      simpleTrace({
        id: `demo-${r}-${i}`,
        name: `${names[i % names.length]} #${i}`,
        status: statuses[i % statuses.length],
        sessionId: `session-${i % 6}`,
        tags: i % 3 === 0 ? ['prod', 'eu-west', 'v2'] : i % 3 === 1 ? ['staging'] : [],
        startedAt: new Date(Date.now() - i * 7 * 60_000).toISOString(),
        endedAt: statuses[i % statuses.length] === 'RUNNING' ? undefined : new Date(Date.now() - i * 7 * 60_000 + 3200 + i * 100).toISOString(),
        totalCost: i % 4 === 0 ? undefined : 0.0123 * (i + 1),
        totalTokens: i % 4 === 0 ? undefined : 1500 * (i + 1),
      }),
    );
  }
  await post(base, key, traces);
  await post(base, key, [agentTrace(`agent-${r}`, 'research agent: population of Lyon', 'session-1')]);
  const withPayload = agentTrace(`payload-${r}`, 'agent with a 1 MB input');
  withPayload.spans[1].input = largePayload(1024 * 1024);
  await post(base, key, [withPayload]);
  await post(base, key, [bigTrace(`big-${r}`, 'big trace (10,000 spans)')]);
  console.log(`seeded run ${r}: agent-${r}, payload-${r}, big-${r}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
