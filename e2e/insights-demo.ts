// Realistic traces for looking at the insights page (and for its screenshots): a week of
// agent runs of five kinds, with tool selections, routings, retries, escalations, planning
// and memory retrievals whose options fail at different rates. Deterministic (seeded).
//   npx tsx e2e/insights-demo.ts http://127.0.0.1:3301 <api key>
import type { DecisionInput, TraceInput } from './fixtures';

function random(seed: number) {
  let s = seed;
  return () => (s = (s * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
}

const AGENTS = [
  { name: 'support triage', weight: 5, tools: ['knowledge_base', 'web_search', 'ticket_lookup'], routes: ['billing', 'technical', 'sales', 'human'] },
  { name: 'checkout assistant', weight: 3, tools: ['payment_api', 'inventory', 'calculator'], routes: ['payments', 'shipping'] },
  { name: 'research agent', weight: 3, tools: ['web_search', 'arxiv', 'code_interpreter', 'calculator'], routes: [] },
  { name: 'code review bot', weight: 2, tools: ['repo_search', 'code_interpreter', 'linter'], routes: [] },
  { name: 'travel planner', weight: 1, tools: ['flights_api', 'hotels_api', 'weather_api', 'web_search'], routes: ['booking', 'human'] },
];
// How often a run fails when this option was taken (the others: 4%).
const RISKY: Record<string, number> = { code_interpreter: 0.3, web_search: 0.12, flights_api: 0.25, human: 0.1, linter: 0.08 };

/** `count` traces over the `days` before `now`, busier in working hours. */
export function insightsDemo(prefix: string, now: number, count = 420, days = 7): TraceInput[] {
  const rnd = random(42);
  const pick = <T,>(items: readonly T[]) => items[Math.floor(rnd() * items.length)];
  const weighted = () => {
    const total = AGENTS.reduce((n, a) => n + a.weight, 0);
    let r = rnd() * total;
    for (const a of AGENTS) if ((r -= a.weight) < 0) return a;
    return AGENTS[0];
  };
  const traces: TraceInput[] = [];
  for (let i = 0; i < count; i++) {
    let startedAt = now - rnd() * days * 86_400_000;
    // Fewer runs at night (UTC): redraw most of them.
    const hour = new Date(startedAt).getUTCHours();
    if ((hour < 7 || hour > 20) && rnd() < 0.6) startedAt = now - rnd() * days * 86_400_000;
    const agent = weighted();
    const decisions: DecisionInput[] = [];
    let risk = 0.04;
    const at = (ms: number) => new Date(startedAt + ms).toISOString();
    const steps = 1 + Math.floor(rnd() * 3);
    if (rnd() < 0.5) decisions.push({ id: `plan`, type: 'PLANNING', chosen: pick(['direct answer', 'multi-step plan', 'ask a clarifying question']), alternatives: ['direct answer', 'multi-step plan', 'ask a clarifying question'], timestamp: at(50) });
    if (rnd() < 0.3) decisions.push({ id: `mem`, type: 'MEMORY_RETRIEVAL', chosen: { name: pick(['recent conversation', 'user profile', 'vector store']) }, alternatives: [{ name: 'recent conversation' }, { name: 'user profile' }, { name: 'vector store' }], timestamp: at(80) });
    if (agent.routes.length && rnd() < 0.8) {
      const route = pick(agent.routes);
      risk = Math.max(risk, RISKY[route] ?? 0);
      decisions.push({ id: 'route', type: 'ROUTING', chosen: { route }, alternatives: agent.routes.filter((r) => r !== route).map((r) => ({ route: r })), timestamp: at(100) });
    }
    for (let s = 0; s < steps; s++) {
      const tool = pick(agent.tools);
      risk = Math.max(risk, RISKY[tool] ?? 0);
      decisions.push({ id: `tool-${s}`, type: 'TOOL_SELECTION', reasoning: `step ${s + 1}`, chosen: { tool, arguments: { step: s } }, alternatives: agent.tools.map((t) => ({ tool: t })), durationMs: 200 + Math.floor(rnd() * 900), costUsd: Math.round(rnd() * 200) / 100_000, timestamp: at(200 + s * 400) });
      if (rnd() < risk * 1.5) decisions.push({ id: `retry-${s}`, type: 'RETRY', chosen: { tool }, alternatives: [], timestamp: at(300 + s * 400) });
    }
    const failed = rnd() < risk;
    if ((failed && rnd() < 0.4) || rnd() < 0.03) decisions.push({ id: 'escalate', type: 'ESCALATION', chosen: { agent: 'human on call' }, alternatives: [{ agent: 'senior model' }], timestamp: at(2000) });
    const durationMs = Math.round(800 + rnd() ** 2 * 9000 + steps * 700 + (failed ? 4000 : 0));
    const tokens = Math.round(600 + rnd() * 2500 * steps);
    traces.push({
      id: `${prefix}-${i}`,
      name: agent.name,
      status: failed ? 'ERROR' : 'COMPLETED',
      tags: ['demo', pick(['prod', 'prod', 'staging'])],
      sessionId: `session-${Math.floor(rnd() * 60)}`,
      startedAt: new Date(startedAt).toISOString(),
      endedAt: new Date(startedAt + durationMs).toISOString(),
      totalTokens: tokens,
      totalCost: Math.round(tokens * 0.000004 * 1e6) / 1e6,
      decisionPoints: decisions,
      spans: [],
      events: [],
    });
  }
  return traces;
}

async function main() {
  const [base = 'http://127.0.0.1:3301', key = 'dev-key'] = process.argv.slice(2);
  const traces = insightsDemo(`demo-${Date.now().toString(36)}`, Date.now());
  for (let i = 0; i < traces.length; i += 200) {
    const res = await fetch(`${base}/api/traces`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ traces: traces.slice(i, i + 200) }),
    });
    if (!res.ok) throw new Error(`POST /api/traces: ${res.status} ${await res.text()}`);
  }
  console.log(`seeded ${traces.length} traces`);
}

if (process.argv[1]?.endsWith('insights-demo.ts')) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
