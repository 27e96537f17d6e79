// Agent runs for the OTLP bench, independent of how they are sent: a root agent span,
// LLM calls with 1-2 KB prompts and responses, some calling one of the tools they were
// offered, the tool executions, a few events. otlp-shapes.ts writes a run as OpenTelemetry
// spans and as POST /api/traces records. Like generate.ts, everything is a pure function
// of (seed, index), so runs are repeatable.
import type { JsonValue } from '@/lib/features/traces/shared';
import { AGENTS, BASE_TIME, Rng, TASKS } from './generate';

export type Convention = 'genai' | 'openinference';

export interface ToolDef {
  name: string;
  description: string;
}

const TOOLS: readonly ToolDef[] = [
  { name: 'web_search', description: 'Search the web and return the top results with snippets' },
  { name: 'sql_query', description: 'Run a read-only SQL query against the analytics warehouse' },
  { name: 'kb_lookup', description: 'Look an article up in the support knowledge base' },
  { name: 'lookup_order', description: 'Fetch an order with its items, payments and shipments' },
  { name: 'create_ticket', description: 'Open a ticket in the helpdesk and assign it to a queue' },
  { name: 'send_email', description: 'Send an email to the customer on file' },
  { name: 'calculator', description: 'Evaluate an arithmetic expression exactly' },
  { name: 'python', description: 'Run a short Python snippet in a sandbox and return stdout' },
];
const MODELS = ['gpt-4o', 'gpt-4o-mini', 'claude-3-5-sonnet', 'gemini-1.5-pro'];
export const PROVIDERS: Record<string, string> = { 'gpt-4o': 'openai', 'gpt-4o-mini': 'openai', 'claude-3-5-sonnet': 'anthropic', 'gemini-1.5-pro': 'gcp.gemini' };
const TAGS = ['prod', 'eval', 'beta', 'canary', 'eu', 'us'];
const WORDS = (
  'the customer wrote that their order arrived late and asked for a refund of the shipping ' +
  'cost so the assistant looked up the order checked the carrier tracking history compared ' +
  'the promised delivery date with the actual one and explained the policy before offering ' +
  'a voucher then summarised the conversation for the support team with the next steps'
).split(' ');

/** Span and request sizes the issue asks for. */
export const SPANS_PER_REQUEST = 1_000;
export const RUN_SPANS_MIN = 12;
export const RUN_SPANS_MAX = 40;
/** LLM prompt and response payloads, bytes of message text each. */
export const LLM_PAYLOAD_MIN = 1_024;
export const LLM_PAYLOAD_MAX = 2_048;

// ---------- the run, independent of how it is sent ----------

export interface RunEvent {
  kind: 'exception' | 'retry' | 'custom';
  name: string;
  atMs: number;
  attributes: Record<string, string | number>;
}

export interface LlmCall {
  model: string;
  system: string;
  prompt: string;
  /** The text the model wrote (with a tool call: why it calls the tool). */
  text: string;
  offered: ToolDef[];
  toolCall: { id: string; name: string; arguments: Record<string, JsonValue> } | null;
  inputTokens: number;
  outputTokens: number;
}

export interface ToolExecution {
  name: string;
  callId: string;
  arguments: Record<string, JsonValue>;
  result: JsonValue;
}

export interface RunSpan {
  id: string;
  parentId: string | null;
  type: 'AGENT' | 'LLM_CALL' | 'TOOL_CALL';
  startMs: number;
  endMs: number;
  error: string | null;
  llm?: LlmCall;
  tool?: ToolExecution;
  events: RunEvent[];
}

export interface AgentRun {
  convention: Convention;
  agent: string;
  task: string;
  sessionId: string;
  tags: string[];
  /** Root first; parents before children. */
  spans: RunSpan[];
}

function words(rng: Rng, bytes: number): string {
  let out = '';
  while (out.length < bytes) out += (out ? ' ' : '') + rng.pick(WORDS);
  return out.slice(0, bytes);
}

function offeredTools(rng: Rng): ToolDef[] {
  const start = rng.int(0, TOOLS.length - 1);
  const n = rng.int(3, 5);
  return Array.from({ length: n }, (_, i) => TOOLS[(start + i) % TOOLS.length]);
}

/** One agent run of exactly `spans` spans (>= 2): a root agent span, LLM calls, the tools they call. */
export function generateRun(seed: number, index: number, spans: number): AgentRun {
  if (spans < 2) throw new RangeError('a run has at least a root and one LLM call');
  const rng = new Rng(seed, index, 0x07e1);
  const convention: Convention = rng.next() < 0.5 ? 'genai' : 'openinference';
  const agent = rng.pick(AGENTS);
  const task = rng.pick(TASKS);
  const start = BASE_TIME - 7 * 24 * 3600 * 1000 + index * 1_000 + rng.int(0, 999);
  const root: RunSpan = { id: rng.hex(16), parentId: null, type: 'AGENT', startMs: start, endMs: start, error: null, events: [] };
  const out: RunSpan[] = [root];
  let clock = start + rng.int(1, 20);
  let left = spans - 1;
  while (left > 0) {
    const callsTool = left >= 2 && rng.next() < 0.6;
    const offered = offeredTools(rng);
    const model = rng.pick(MODELS);
    const promptBytes = rng.logUniform(LLM_PAYLOAD_MIN, LLM_PAYLOAD_MAX);
    const responseBytes = rng.logUniform(LLM_PAYLOAD_MIN, LLM_PAYLOAD_MAX);
    const system = `You are ${agent}, a careful assistant. Use the tools when they help.`;
    const prompt = words(rng, Math.max(16, promptBytes - system.length));
    const chosen = callsTool ? rng.pick(offered) : null;
    const args: Record<string, JsonValue> = { query: words(rng, rng.int(30, 160)), limit: rng.int(1, 20) };
    const toolCall = chosen ? { id: `call_${rng.hex(12)}`, name: chosen.name, arguments: args } : null;
    const text = words(rng, Math.max(16, responseBytes - (toolCall ? JSON.stringify(toolCall).length : 0)));
    const llmDuration = rng.int(300, 4_000);
    const llm: RunSpan = {
      id: rng.hex(16),
      parentId: root.id,
      type: 'LLM_CALL',
      startMs: clock,
      endMs: clock + llmDuration,
      error: null,
      llm: { model, system, prompt, text, offered, toolCall, inputTokens: Math.round(promptBytes / 4), outputTokens: Math.round(responseBytes / 4) },
      events: [],
    };
    if (rng.next() < 0.15) {
      llm.events.push({ kind: 'retry', name: 'retry', atMs: clock + rng.int(1, llmDuration - 1), attributes: { attempt: 2, reason: 'rate_limited' } });
    }
    out.push(llm);
    clock = llm.endMs + rng.int(1, 20);
    left--;
    if (toolCall) {
      const toolDuration = rng.int(5, 1_500);
      const failed = rng.next() < 0.05;
      const tool: RunSpan = {
        id: rng.hex(16),
        parentId: root.id,
        type: 'TOOL_CALL',
        startMs: clock,
        endMs: clock + toolDuration,
        error: failed ? `${toolCall.name} timed out after ${toolDuration} ms` : null,
        tool: {
          name: toolCall.name,
          callId: toolCall.id,
          arguments: toolCall.arguments,
          result: failed ? null : { ok: true, rows: rng.int(0, 50), summary: words(rng, rng.int(80, 500)) },
        },
        events: [],
      };
      if (failed) {
        tool.events.push({
          kind: 'exception',
          name: 'exception',
          atMs: tool.endMs,
          attributes: {
            'exception.type': 'TimeoutError',
            'exception.message': tool.error!,
            'exception.stacktrace': `TimeoutError: ${tool.error}\n    at callTool (agent/tools.py:88)\n    at run (agent/loop.py:41)`,
          },
        });
      }
      out.push(tool);
      clock = tool.endMs + rng.int(1, 20);
      left--;
    }
  }
  root.endMs = clock + rng.int(1, 50);
  root.events.push({ kind: 'custom', name: 'run.summary', atMs: root.endMs, attributes: { steps: spans - 1, outcome: rng.pick(['resolved', 'escalated', 'answered']) } });
  // Most runs recover from a failed tool (the model tries another way); some give up.
  if (out.some((s) => s.error) && rng.next() < 0.3) root.error = 'agent gave up after a failed tool call';
  const tags: string[] = [];
  for (let i = rng.int(0, 2); i > 0; i--) {
    const t = rng.pick(TAGS);
    if (!tags.includes(t)) tags.push(t);
  }
  return { convention, agent, task, sessionId: `sess-otlp-${seed}-${Math.floor(index / 4)}`, tags, spans: out };
}

/** Run sizes for one request of exactly `total` spans: whole runs of RUN_SPANS_MIN..MAX spans (the last one filling up). */
export function runSizes(seed: number, request: number, total: number): number[] {
  const rng = new Rng(seed, request, 0x5e5);
  const sizes: number[] = [];
  let left = total;
  while (left > 0) {
    let n = Math.min(left, rng.int(RUN_SPANS_MIN, RUN_SPANS_MAX));
    if (left - n < RUN_SPANS_MIN) n = left;
    sizes.push(n);
    left -= n;
  }
  return sizes;
}

/** The runs of request template `request`: run indexes are unique across templates. */
export function requestRuns(seed: number, request: number, total = SPANS_PER_REQUEST): AgentRun[] {
  return runSizes(seed, request, total).map((n, i) => generateRun(seed, request * 10_000 + i, n));
}
