// Times the MCP tools over HTTP against a running server, through the MCP SDK's own client:
// RUNS runs of one agent (three decisions each; the runs that search the knowledge base at
// the second decision mostly fail) are posted to /api/traces, then each tool is called
// CALLS times after one warm-up, sorted ms per call.
//   npx tsx scripts/bench/mcp.ts <base URL> [--key KEY] [--runs 5000] [--calls 20]
// Used for the figures in docs/benchmarks.md ("MCP tools").
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

const base = process.argv[2];
if (!base) throw new Error('usage: mcp.ts <base URL> [--key KEY] [--runs N] [--calls N]');
const option = (name: string): string | undefined => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const RUNS = Number(option('runs') ?? 5000);
const CALLS = Number(option('calls') ?? 20);
const key = option('key');
const auth: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {};
const tag = `bench-mcp-${Date.now().toString(36)}`;
const name = `${tag}-agent`;

const t0 = Date.UTC(2026, 0, 1);
const at = (ms: number) => new Date(t0 + ms).toISOString();
const routes = ['billing', 'shipping', 'sales'];
const tools = ['lookup_order', 'search_kb', 'issue_refund', 'apologize'];
const pick = <T>(xs: T[], i: number) => xs[i % xs.length];

function run(i: number) {
  const choices = [pick(routes, i * 7 + 1), pick(tools, i * 13 + 3), pick(tools, i * 5 + 2)];
  const failed = choices[1] === 'search_kb' ? i % 4 !== 0 : i % 10 === 0;
  const start = i * 15_000;
  const status = failed ? 'ERROR' : 'COMPLETED';
  return {
    id: `${tag}-${i}`,
    name,
    status,
    tags: ['bench'],
    startedAt: at(start),
    endedAt: at(start + 4000),
    totalCost: 0.01,
    totalTokens: 900,
    spans: [
      { id: 'root', name: 'agent', type: 'AGENT', status, input: { message: `refund order ${i}` }, output: 'done', startedAt: at(start), endedAt: at(start + 4000) },
      { id: 'llm', parentSpanId: 'root', name: 'plan', type: 'LLM_CALL', status: 'COMPLETED', input: { prompt: 'x'.repeat(2000) }, output: 'ok', tokenCount: 900, startedAt: at(start + 10), endedAt: at(start + 600) },
      { id: 'tool', parentSpanId: 'root', name: choices[1], type: 'TOOL_CALL', status, ...(failed && { statusMessage: 'tool failed' }), startedAt: at(start + 700), endedAt: at(start + 900) },
    ],
    decisionPoints: choices.map((c, k) => ({
      id: `d${k}`,
      type: k === 0 ? 'ROUTING' : 'TOOL_SELECTION',
      chosen: k === 0 ? c : { tool: c },
      alternatives: [],
      parentSpanId: 'root',
      timestamp: at(start + 100 + k * 200),
    })),
    events: [],
  };
}

const seeding = performance.now();
for (let from = 0; from < RUNS; from += 500) {
  const traces = Array.from({ length: Math.min(500, RUNS - from) }, (_, k) => run(from + k));
  const res = await fetch(`${base}/api/traces`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ traces }) });
  if (!res.ok) throw new Error(`ingest: ${res.status} ${await res.text()}`);
}
console.log(`seeded ${RUNS} runs in ${Math.round(performance.now() - seeding)} ms`);

const client = new Client({ name: 'crossroads-bench', version: '1.0.0' });
const connecting = performance.now();
await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/api/mcp`), { requestInit: { headers: auth } }));
console.log(`connect (initialize): ${Math.round(performance.now() - connecting)} ms`);

// The newest run that searched the knowledge base and failed.
let failed = RUNS - 1;
while (failed >= 0 && !(run(failed).status === 'ERROR' && run(failed).spans[2].name === 'search_kb')) failed--;
const traceId = `${tag}-${failed}`;
const window = { from: at(-1000), to: at(RUNS * 15_000 + 1000) };
const calls: Array<[string, Record<string, unknown>]> = [
  ['search_traces', { name, status: 'ERROR', ...window }],
  ['search_traces', { query: 'tool failed', limit: 10 }],
  ['get_trace', { traceId }],
  ['get_span', { traceId, spanId: 'llm' }],
  ['similar_runs', { traceId }],
  ['similar_runs', { traceId, at: 2 }],
  ['compare_traces', { traceId }],
  ['decision_stats', { name, ...window }],
  ['decision_paths', { name, ...window }],
];
console.log('| tool and arguments | p50 ms | p95 ms |\n|---|---|---|');
for (const [tool, args] of calls) {
  const times: number[] = [];
  for (let i = 0; i <= CALLS; i++) {
    const start = performance.now();
    const result = (await client.callTool({ name: tool, arguments: args })) as CallToolResult;
    if (result.isError) throw new Error(`${tool}: ${JSON.stringify(result.content)}`);
    if (i > 0) times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const p = (q: number) => Math.round(times[Math.min(times.length - 1, Math.floor(q * times.length))]);
  console.log(`| \`${tool}\` ${JSON.stringify(args).replaceAll(tag, '…')} | ${p(0.5)} | ${p(0.95)} |`);
}
await client.close();
