// Trace builders for the viewer's end-to-end tests (and for seeding a dev server by
// hand: `npx tsx e2e/seed.ts http://127.0.0.1:3301 <api key>`). Bodies follow
// shared/spec/trace-api.md section 2 exactly; everything is sent through the real
// POST /api/traces.

export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

export interface SpanInput {
  id: string;
  parentSpanId?: string;
  name: string;
  type: 'LLM_CALL' | 'TOOL_CALL' | 'MEMORY_OP' | 'CHAIN' | 'AGENT' | 'CUSTOM';
  input?: Json;
  output?: Json;
  tokenCount?: number;
  costUsd?: number;
  durationMs?: number;
  status: 'RUNNING' | 'COMPLETED' | 'ERROR';
  statusMessage?: string;
  startedAt: string;
  endedAt?: string;
  metadata?: Json;
}

export interface DecisionInput {
  id: string;
  type: 'TOOL_SELECTION' | 'ROUTING' | 'RETRY' | 'ESCALATION' | 'MEMORY_RETRIEVAL' | 'PLANNING' | 'CUSTOM';
  reasoning?: string;
  chosen: Json;
  alternatives: Json[];
  contextSnapshot?: Json;
  durationMs?: number;
  costUsd?: number;
  parentSpanId?: string;
  timestamp: string;
}

export interface EventInput {
  id: string;
  spanId?: string;
  type: 'ERROR' | 'RETRY' | 'FALLBACK' | 'CONTEXT_OVERFLOW' | 'USER_FEEDBACK' | 'CUSTOM';
  name: string;
  metadata?: Json;
  timestamp: string;
}

export interface TraceInput {
  id: string;
  name: string;
  sessionId?: string;
  userId?: string;
  status: 'RUNNING' | 'COMPLETED' | 'ERROR';
  tags: string[];
  metadata?: Json;
  totalCost?: number;
  totalTokens?: number;
  totalDuration?: number;
  startedAt: string;
  endedAt?: string;
  decisionPoints: DecisionInput[];
  spans: SpanInput[];
  events: EventInput[];
}

/** A short id unique to this run, so tests never collide in a shared database. */
export function runId(): string {
  return `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`;
}

const iso = (t: number) => new Date(t).toISOString();

/** A trace with nothing inside. */
export function simpleTrace(overrides: Partial<TraceInput> & Pick<TraceInput, 'id' | 'name'>): TraceInput {
  return {
    status: 'COMPLETED',
    tags: [],
    startedAt: iso(Date.now() - 60_000),
    decisionPoints: [],
    spans: [],
    events: [],
    ...overrides,
  };
}

/**
 * An agent run with the shapes the viewer must show: nesting three deep, an LLM call
 * that failed, a retry, tool-selection and routing decisions (one on the trace itself),
 * events on spans and on the trace, an orphan span, and payloads of several kinds.
 * No trace totals: the header must sum the spans and say so.
 */
export function agentTrace(id: string, name: string, sessionId?: string): TraceInput {
  const t0 = Date.now() - 5 * 60_000;
  const at = (ms: number) => iso(t0 + ms);
  return {
    id,
    name,
    sessionId,
    status: 'ERROR',
    tags: ['e2e', 'agent', 'research'],
    metadata: { user: 'ada', env: 'test', model: { name: 'gpt-x', temperature: 0.2 } },
    startedAt: at(0),
    endedAt: at(4200),
    spans: [
      {
        id: 'root',
        name: 'research agent',
        type: 'AGENT',
        status: 'ERROR',
        statusMessage: 'Gave up after the search tool failed twice',
        startedAt: at(0),
        endedAt: at(4200),
        input: { question: 'What is the population of Lyon?' },
      },
      {
        id: 'plan',
        parentSpanId: 'root',
        name: 'plan steps',
        type: 'LLM_CALL',
        status: 'COMPLETED',
        startedAt: at(50),
        durationMs: 800,
        tokenCount: 1200,
        costUsd: 0.0042,
        input: { messages: [{ role: 'user', content: 'What is the population of Lyon?' }] },
        output: { text: 'First search the web, then answer.' },
      },
      {
        id: 'search-1',
        parentSpanId: 'root',
        name: 'web_search',
        type: 'TOOL_CALL',
        status: 'ERROR',
        statusMessage: 'HTTP 503 from search backend',
        startedAt: at(1000),
        durationMs: 1200,
        input: { query: 'population of Lyon' },
      },
      {
        id: 'search-1-http',
        parentSpanId: 'search-1',
        name: 'http GET search',
        type: 'CUSTOM',
        status: 'ERROR',
        startedAt: at(1050),
        durationMs: 1100,
      },
      {
        id: 'search-2',
        parentSpanId: 'root',
        name: 'web_search (retry)',
        type: 'TOOL_CALL',
        status: 'COMPLETED',
        startedAt: at(2400),
        durationMs: 900,
        tokenCount: 300,
        costUsd: 0.001,
        output: { results: [{ title: 'Lyon', snippet: 'Lyon has about 520,000 inhabitants.' }] },
      },
      {
        id: 'memory',
        parentSpanId: 'missing-parent',
        name: 'memory lookup',
        type: 'MEMORY_OP',
        status: 'COMPLETED',
        startedAt: at(3400),
        durationMs: 300,
      },
    ],
    decisionPoints: [
      {
        id: 'choose-tool',
        type: 'TOOL_SELECTION',
        parentSpanId: 'root',
        reasoning: 'The question asks for a current figure, so a web search beats the model’s memory.',
        chosen: { tool: 'web_search', args: { query: 'population of Lyon' } },
        alternatives: [{ tool: 'calculator' }, { tool: 'answer_from_memory' }],
        contextSnapshot: { step: 1, budgetLeft: 0.5 },
        durationMs: 120,
        costUsd: 0.0003,
        timestamp: at(900),
      },
      {
        id: 'retry-search',
        type: 'RETRY',
        parentSpanId: 'root',
        reasoning: 'The search backend returned 503; one retry is within budget.',
        chosen: 'retry_same_tool',
        alternatives: ['switch_tool', 'give_up'],
        timestamp: at(2300),
      },
      {
        id: 'route-answer',
        type: 'ROUTING',
        reasoning: 'Low confidence: route to a human.',
        chosen: 'human_review',
        alternatives: ['auto_answer'],
        timestamp: at(4000),
      },
    ],
    events: [
      { id: 'ev-503', spanId: 'search-1', type: 'ERROR', name: 'search 503', timestamp: at(2150), metadata: { status: 503 } },
      { id: 'ev-retry', spanId: 'search-2', type: 'RETRY', name: 'retrying search', timestamp: at(2400) },
      { id: 'ev-feedback', type: 'USER_FEEDBACK', name: 'thumbs down', timestamp: at(4100), metadata: { score: -1 } },
    ],
  };
}

/**
 * `n` spans: a few agents with many children each, plus a chain 1,000 deep (the tree
 * and its indentation must cope), errors sprinkled in, and decisions and events.
 */
export function bigTrace(id: string, name: string, n = 10_000): TraceInput {
  const t0 = Date.now() - 60 * 60_000;
  const at = (ms: number) => iso(t0 + ms);
  const spans: SpanInput[] = [];
  const chain = 1000;
  const agents = 20;
  spans.push({ id: 'root', name: 'orchestrator', type: 'AGENT', status: 'COMPLETED', startedAt: at(0), durationMs: n * 10 + 1000 });
  for (let a = 0; a < agents; a++) {
    spans.push({ id: `agent-${a}`, parentSpanId: 'root', name: `worker agent ${a}`, type: 'AGENT', status: 'COMPLETED', startedAt: at(a * 10), durationMs: n * 9 });
  }
  for (let i = 0; i < chain; i++) {
    spans.push({
      id: `deep-${i}`,
      parentSpanId: i === 0 ? 'root' : `deep-${i - 1}`,
      name: `nested step ${i}`,
      type: 'CHAIN',
      status: 'COMPLETED',
      startedAt: at(i * 5),
      durationMs: (chain - i) * 5,
    });
  }
  const types: SpanInput['type'][] = ['LLM_CALL', 'TOOL_CALL', 'MEMORY_OP', 'CUSTOM'];
  for (let i = spans.length; i < n; i++) {
    spans.push({
      id: `s-${i}`,
      parentSpanId: `agent-${i % agents}`,
      name: `${types[i % 4].toLowerCase()} #${i}`,
      type: types[i % 4],
      status: i % 997 === 0 ? 'ERROR' : 'COMPLETED',
      startedAt: at(i * 10),
      durationMs: 5 + (i % 40),
      tokenCount: i % 4 === 0 ? 100 + (i % 50) : undefined,
      costUsd: i % 4 === 0 ? 0.0001 : undefined,
    });
  }
  spans.sort((a, b) => a.startedAt.localeCompare(b.startedAt));
  const decisionPoints: DecisionInput[] = Array.from({ length: 50 }, (_, k) => ({
    id: `d-${k}`,
    type: 'TOOL_SELECTION',
    parentSpanId: `agent-${k % agents}`,
    chosen: `tool-${k}`,
    alternatives: [`tool-${k + 1}`],
    timestamp: at(k * 2000 + 7),
  }));
  const events: EventInput[] = Array.from({ length: 50 }, (_, k) => ({
    id: `e-${k}`,
    spanId: `agent-${k % agents}`,
    type: k % 5 === 0 ? 'ERROR' : 'CUSTOM',
    name: `event ${k}`,
    timestamp: at(k * 2000 + 11),
  }));
  return {
    id,
    name,
    status: 'COMPLETED',
    tags: ['e2e', 'big'],
    startedAt: at(0),
    endedAt: at(n * 10 + 1000),
    totalCost: 0.25,
    totalTokens: 250_000,
    totalDuration: n * 10 + 1000,
    spans,
    decisionPoints,
    events,
  };
}

/** A span whose input is about `bytes` of JSON (the viewer must stay fast on it). */
export function largePayload(bytes: number): Json {
  const rows: Json[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const row = { index: i, id: `row-${i}`, text: `lorem ipsum dolor sit amet ${i} `.repeat(3), score: i / 7 };
    size += JSON.stringify(row).length + 1;
    rows.push(row);
  }
  return { rows, note: 'large payload' };
}
