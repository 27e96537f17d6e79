// The demo data set: agent runs of three kinds as an agent would send them to
// POST /api/traces (the wire format), deterministic for a given clock (a seeded generator,
// times relative to `now`). Runs of one kind share their first steps and part at a fork:
// the support agent's refund path and the analyst's "query without looking at the schema"
// path fail far more often than their siblings, which is what a reader should find.
// Every trace is marked: its id starts with DEMO_ID_PREFIX, it carries the DEMO_TAG tag
// and `crossroadsDemo: true` in its metadata; removal matches all three.

export const DEMO_ID_PREFIX = 'demo-';
export const DEMO_TAG = 'demo';
export const DEMO_METADATA_KEY = 'crossroadsDemo';

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
type Status = 'COMPLETED' | 'ERROR';

interface Span {
  id: string;
  parentSpanId?: string;
  name: string;
  type: 'LLM_CALL' | 'TOOL_CALL' | 'MEMORY_OP' | 'CHAIN' | 'AGENT';
  status: Status;
  statusMessage?: string;
  startedAt: string;
  endedAt: string;
  durationMs: number;
  input?: Json;
  output?: Json;
  tokenCount?: number;
  costUsd?: number;
  metadata?: Json;
}

interface Decision {
  id: string;
  type: 'TOOL_SELECTION' | 'ROUTING' | 'RETRY' | 'ESCALATION' | 'MEMORY_RETRIEVAL' | 'PLANNING';
  reasoning?: string;
  chosen: Json;
  alternatives: Json[];
  contextSnapshot?: Json;
  parentSpanId?: string;
  timestamp: string;
}

interface Event {
  id: string;
  spanId?: string;
  type: 'ERROR' | 'RETRY' | 'FALLBACK' | 'CONTEXT_OVERFLOW' | 'USER_FEEDBACK';
  name: string;
  metadata?: Json;
  timestamp: string;
}

export interface DemoTrace {
  id: string;
  name: string;
  sessionId?: string;
  userId?: string;
  status: Status;
  tags: string[];
  metadata: Json;
  totalCost: number;
  totalTokens: number;
  totalDuration: number;
  startedAt: string;
  endedAt: string;
  spans: Span[];
  decisionPoints: Decision[];
  events: Event[];
}

/** Prices per million tokens (input, output), as the providers list them. */
const MODELS = {
  'gpt-4o-mini': [0.15, 0.6],
  'gpt-4o': [2.5, 10],
  'claude-sonnet-4-5': [3, 15],
} as const;
type Model = keyof typeof MODELS;

function random(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
}

/** Builds one run: a clock that advances as steps are added, and the lists they go in. */
class Run {
  readonly spans: Span[] = [];
  readonly decisions: Decision[] = [];
  readonly events: Event[] = [];
  t = 0;

  constructor(
    readonly start: number,
    readonly rnd: () => number,
  ) {}

  at(ms = this.t): string {
    return new Date(this.start + ms).toISOString();
  }

  span(s: Omit<Span, 'startedAt' | 'endedAt' | 'durationMs' | 'status'> & { ms: number; status?: Status }): Span {
    const { ms, status = 'COMPLETED', ...rest } = s;
    const span: Span = { ...rest, status, startedAt: this.at(), endedAt: this.at(this.t + ms), durationMs: ms };
    this.spans.push(span);
    this.t += ms + 15;
    return span;
  }

  llm(id: string, parent: string, name: string, model: Model, messages: Json[], reply: Json, extra: Partial<Span> = {}): Span {
    const input = 300 + Math.round(this.rnd() * 1800);
    const output = 60 + Math.round(this.rnd() * 400);
    const [pi, po] = MODELS[model];
    const cost = Math.round(((input * pi + output * po) / 1e6) * 1e8) / 1e8;
    return this.span({
      id,
      parentSpanId: parent,
      name,
      type: 'LLM_CALL',
      ms: 400 + Math.round(this.rnd() * 1600),
      input: { messages },
      output: { choices: [{ message: reply }] },
      tokenCount: input + output,
      costUsd: cost,
      metadata: { model, 'gen_ai.usage.input_tokens': input, 'gen_ai.usage.output_tokens': output },
      ...extra,
    });
  }

  tool(id: string, parent: string, name: string, args: Json, result: Json, callId: string, error?: string): Span {
    return this.span({
      id,
      parentSpanId: parent,
      name,
      type: 'TOOL_CALL',
      ms: 80 + Math.round(this.rnd() * 900),
      input: args,
      output: error ? null : result,
      status: error ? 'ERROR' : 'COMPLETED',
      statusMessage: error,
      metadata: { toolCallId: callId },
    });
  }

  decide(d: Omit<Decision, 'timestamp'>): void {
    this.decisions.push({ ...d, timestamp: this.at() });
    this.t += 5;
  }

  event(e: Omit<Event, 'timestamp'>, ms = this.t): void {
    this.events.push({ ...e, timestamp: this.at(ms) });
  }
}

const assistantCall = (text: string | null, call: { id: string; name: string; args: Json }): Json => ({
  role: 'assistant',
  content: text,
  tool_calls: [{ id: call.id, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.args) } }],
});

const tools = (names: string[]): Json => names.map((name) => ({ type: 'function', function: { name } }));

const QUESTIONS = {
  billing: ['I was charged twice for order #{n}.', 'Can I get a refund for order #{n}? It arrived broken.', 'Why is my invoice for #{n} higher than the quote?'],
  technical: ['The app crashes when I upload a photo.', 'I cannot log in since the update.', 'Export to CSV gives me an empty file.'],
  account: ['How do I change the email on my account?', 'Please delete my account and data.', 'Can I add a second user to my plan?'],
} as const;
type Route = keyof typeof QUESTIONS;
const ROUTES: Route[] = ['billing', 'technical', 'account'];

function fill(text: string, n: number): string {
  return text.replace('{n}', String(n));
}

/** Route confidences that sum to 1, the chosen one highest. */
function confidences(rnd: () => number, chosen: Route): Record<Route, number> {
  const top = 0.55 + rnd() * 0.4;
  const others = ROUTES.filter((r) => r !== chosen);
  const split = rnd() * (1 - top);
  const round = (x: number) => Math.round(x * 100) / 100;
  return { [chosen]: round(top), [others[0]]: round(split), [others[1]]: round(1 - top - split) } as Record<Route, number>;
}

/** One turn of the support agent: intent, routing with confidences, a tool, a reply; refunds fail and escalate. */
function supportTurn(run: Run, n: number, route: Route, wantsRefund: boolean): Status {
  const { rnd } = run;
  const question = fill(QUESTIONS[route][Math.floor(rnd() * 3)], 4100 + n);
  run.span({ id: 'agent', name: 'support-agent', type: 'AGENT', ms: 0, input: { message: question } });
  const root = run.spans[0];
  const system = { role: 'system', content: 'You are Acme’s support agent. Be brief and friendly. Use tools to look things up.' };
  run.llm('classify', 'agent', 'classify intent', 'gpt-4o-mini', [system, { role: 'user', content: question }], {
    role: 'assistant',
    content: JSON.stringify({ intent: route }),
  });
  const conf = confidences(rnd, route);
  run.decide({
    id: 'route',
    type: 'ROUTING',
    parentSpanId: 'agent',
    reasoning: `The message reads as a ${route} question (confidence ${conf[route]}).`,
    chosen: { route, confidence: conf[route] },
    alternatives: ROUTES.filter((r) => r !== route).map((r) => ({ route: r, confidence: conf[r] })),
  });
  run.span({ id: 'memory', parentSpanId: 'agent', name: 'load conversation', type: 'MEMORY_OP', ms: 20 + Math.round(rnd() * 60), output: { turns: n } });
  if (n > 0) {
    run.decide({ id: 'memory-pick', type: 'MEMORY_RETRIEVAL', parentSpanId: 'agent', chosen: 'recent conversation', alternatives: ['customer profile', 'help center'] });
  }

  // The fork: a refund goes to the payments API, which often fails; everything else looks things up.
  const tool = wantsRefund ? 'issue_refund' : route === 'billing' ? 'lookup_order' : 'search_help_center';
  const args: Json = tool === 'search_help_center' ? { query: question.slice(0, 40) } : { order: `#${4100 + n}` };
  const callId = `call_${n}_${tool}`;
  const offered = ['lookup_order', 'issue_refund', 'search_help_center'];
  run.llm('plan', 'agent', 'choose next step', 'gpt-4o', [system, { role: 'user', content: question }], assistantCall(null, { id: callId, name: tool, args }), {
    input: { messages: [system, { role: 'user', content: question }], tools: tools(offered) },
  });
  run.decide({
    id: 'pick-tool',
    type: 'TOOL_SELECTION',
    parentSpanId: 'plan',
    reasoning: wantsRefund ? 'The customer asks for their money back: issue the refund.' : `Look it up before answering (${tool}).`,
    chosen: { tool, arguments: args },
    alternatives: offered.filter((o) => o !== tool).map((o) => ({ tool: o })),
    contextSnapshot: { toolCallId: callId },
  });
  const fails = wantsRefund && rnd() < 0.75;
  const toolSpan = run.tool('tool', 'agent', tool, args, tool === 'issue_refund' ? { refunded: true } : { found: 1, summary: 'Order shipped on Monday.' }, callId, fails ? 'payments-api: 502 Bad Gateway' : undefined);

  if (fails) {
    run.event({ id: 'tool-error', spanId: toolSpan.id, type: 'ERROR', name: 'payments-api failed', metadata: { status: 502 } });
    run.decide({ id: 'retry', type: 'RETRY', parentSpanId: 'agent', reasoning: 'A 502 is often transient.', chosen: 'retry once', alternatives: ['give up', 'escalate'] });
    run.event({ id: 'retry', spanId: 'agent', type: 'RETRY', name: 'retry issue_refund', metadata: { attempt: 2 } });
    run.tool('tool-retry', 'agent', 'issue_refund', args, null, `${callId}_2`, 'payments-api: 502 Bad Gateway');
    run.decide({
      id: 'escalate',
      type: 'ESCALATION',
      parentSpanId: 'agent',
      reasoning: 'Refund failed twice; a person must handle it.',
      chosen: { agent: 'billing team (human)' },
      alternatives: [{ agent: 'apologise and end' }],
    });
    run.event({ id: 'handoff', spanId: 'agent', type: 'FALLBACK', name: 'handed off to the billing team' });
    root.status = 'ERROR';
    root.statusMessage = 'Refund could not be issued; escalated to a person.';
  } else {
    const answer = tool === 'issue_refund' ? 'Done: your refund is on its way (3-5 business days).' : 'Thanks for waiting! Here is what I found: your order shipped on Monday.';
    run.llm('reply', 'agent', 'write reply', 'claude-sonnet-4-5', [system, { role: 'user', content: question }, assistantCall(null, { id: callId, name: tool, args }), { role: 'tool', tool_call_id: callId, content: JSON.stringify(toolSpan.output) }], {
      role: 'assistant',
      content: answer,
    });
    root.output = { message: answer };
  }
  root.durationMs = run.t;
  root.endedAt = run.at(run.t);
  return root.status;
}

/** The research agent: plans, searches, sometimes overflows its context and falls back to a summary. */
function researchRun(run: Run, topic: string): Status {
  const { rnd } = run;
  run.span({ id: 'agent', name: 'research-agent', type: 'AGENT', ms: 0, input: { topic } });
  const root = run.spans[0];
  const plan = rnd() < 0.6 ? 'search, read, summarise' : 'answer from memory';
  run.llm('plan', 'agent', 'plan', 'gpt-4o', [{ role: 'user', content: `Write a short brief on ${topic}.` }], { role: 'assistant', content: `Plan: ${plan}.` });
  run.decide({ id: 'plan', type: 'PLANNING', parentSpanId: 'agent', chosen: plan, alternatives: ['search, read, summarise', 'answer from memory', 'ask a clarifying question'] });
  let status: Status = 'COMPLETED';
  if (plan === 'search, read, summarise') {
    for (let i = 0; i < 2; i++) {
      run.decide({ id: `pick-${i}`, type: 'TOOL_SELECTION', parentSpanId: 'agent', chosen: { tool: i === 0 ? 'web_search' : 'fetch_page' }, alternatives: [{ tool: 'arxiv_search' }, { tool: i === 0 ? 'fetch_page' : 'web_search' }] });
      run.tool(`tool-${i}`, 'agent', i === 0 ? 'web_search' : 'fetch_page', { q: topic }, { results: 5 }, `r${i}`);
    }
    if (rnd() < 0.3) {
      run.event({ id: 'overflow', spanId: 'agent', type: 'CONTEXT_OVERFLOW', name: 'pages exceed the context window', metadata: { tokens: 131_072 } });
      run.event({ id: 'fallback', spanId: 'agent', type: 'FALLBACK', name: 'summarised each page first' });
    }
  } else if (rnd() < 0.5) {
    status = 'ERROR';
    root.statusMessage = 'Answered from memory with outdated facts (caught by the checker).';
    run.event({ id: 'check', spanId: 'agent', type: 'ERROR', name: 'fact check failed' });
  }
  run.llm('write', 'agent', 'write brief', 'claude-sonnet-4-5', [{ role: 'user', content: `Write a short brief on ${topic}.` }], { role: 'assistant', content: `${topic}: three key points…` });
  root.status = status;
  root.durationMs = run.t;
  root.endedAt = run.at(run.t);
  return status;
}

/** The SQL analyst: describing the table first works; querying blind fails most of the time. */
function analystRun(run: Run, question: string): Status {
  const { rnd } = run;
  run.span({ id: 'agent', name: 'sql-analyst', type: 'AGENT', ms: 0, input: { question } });
  const root = run.spans[0];
  const blind = rnd() < 0.45;
  const first = blind ? 'run_sql' : 'describe_table';
  run.llm('think', 'agent', 'decide first step', 'gpt-4o-mini', [{ role: 'user', content: question }], assistantCall(null, { id: 'c1', name: first, args: { table: 'orders' } }));
  run.decide({ id: 'first-tool', type: 'TOOL_SELECTION', parentSpanId: 'think', chosen: { tool: first }, alternatives: [{ tool: blind ? 'describe_table' : 'run_sql' }], contextSnapshot: { toolCallId: 'c1' } });
  let status: Status = 'COMPLETED';
  if (blind) {
    const fails = rnd() < 0.7;
    run.tool('sql', 'agent', 'run_sql', { sql: 'SELECT sum(total) FROM order WHERE month = 10' }, { rows: 1 }, 'c1', fails ? 'relation "order" does not exist' : undefined);
    if (fails) status = 'ERROR';
  } else {
    run.tool('describe', 'agent', 'describe_table', { table: 'orders' }, { columns: ['id', 'total', 'created_at'] }, 'c1');
    run.decide({ id: 'second-tool', type: 'TOOL_SELECTION', parentSpanId: 'agent', chosen: { tool: 'run_sql' }, alternatives: [{ tool: 'describe_table' }] });
    run.tool('sql', 'agent', 'run_sql', { sql: "SELECT sum(total) FROM orders WHERE created_at >= '2026-10-01'" }, { rows: 1 }, 'c2');
  }
  if (status === 'ERROR') root.statusMessage = 'The query failed: relation "order" does not exist.';
  else run.llm('answer', 'agent', 'explain result', 'gpt-4o-mini', [{ role: 'user', content: question }], { role: 'assistant', content: 'October revenue was $48,210.' });
  root.status = status;
  root.durationMs = run.t;
  root.endedAt = run.at(run.t);
  return status;
}

const TOPICS = ['solid-state batteries', 'the EU AI Act', 'vector databases', 'heat pumps', 'RISC-V', 'CRISPR therapies'];
const SQL_QUESTIONS = ['What was revenue in October?', 'How many orders shipped late last week?', 'Top 5 customers by spend this year?'];

/** The demo traces for the clock `now` (ms): 60 runs over the 36 hours before it, newest first. */
export function demoTraces(now: number): DemoTrace[] {
  const rnd = random(7);
  const traces: DemoTrace[] = [];
  const mark = (kind: string): Json => ({ [DEMO_METADATA_KEY]: true, agent: kind, env: 'demo' });
  let slot = 0;
  // Slots 36 minutes apart (about a day for all), so runs never overlap and the newest is a few minutes old.
  const nextStart = () => now - 5 * 60_000 - slot++ * 36 * 60_000 + Math.round(rnd() * 60_000);

  // Support conversations: 12 sessions of 2-4 turns, one user each.
  for (let s = 0; s < 12; s++) {
    const turns = 2 + Math.floor(rnd() * 3);
    const route = ROUTES[s % 3];
    const sessionId = `${DEMO_ID_PREFIX}support-${s + 1}`;
    const start = nextStart();
    for (let turn = 0; turn < turns; turn++) {
      const run = new Run(start + turn * 90_000, rnd);
      const wantsRefund = route === 'billing' && turn === turns - 1 && rnd() < 0.8;
      const status = supportTurn(run, turn, route, wantsRefund);
      if (turn === turns - 1) {
        const up = status === 'COMPLETED' && rnd() < 0.85;
        run.event({ id: 'feedback', type: 'USER_FEEDBACK', name: up ? 'thumbs up' : 'thumbs down', metadata: { score: up ? 1 : 0, comment: up ? 'Quick and clear, thanks!' : 'Still waiting for my money.' } }, run.t + 20_000);
      }
      traces.push(trace(`support-${s + 1}-${turn + 1}`, 'support-agent', run, status, ['support', route], mark('support'), sessionId, `user-${100 + s}`));
    }
  }
  // Research briefs and SQL questions, one run each.
  for (let i = 0; i < 12; i++) {
    const run = new Run(nextStart(), rnd);
    const topic = TOPICS[i % TOPICS.length];
    traces.push(trace(`research-${i + 1}`, 'research-agent', run, researchRun(run, topic), ['research'], mark('research'), undefined, `user-${200 + (i % 4)}`));
  }
  for (let i = 0; i < 14; i++) {
    const run = new Run(nextStart(), rnd);
    traces.push(trace(`analyst-${i + 1}`, 'sql-analyst', run, analystRun(run, SQL_QUESTIONS[i % SQL_QUESTIONS.length]), ['analytics'], mark('sql-analyst'), undefined, 'user-300'));
  }
  return traces.sort((a, b) => b.startedAt.localeCompare(a.startedAt));
}

function trace(id: string, name: string, run: Run, status: Status, tags: string[], metadata: Json, sessionId?: string, userId?: string): DemoTrace {
  // The run ends with its last span; feedback comes later and stays an event after it.
  const end = Math.max(...run.spans.map((s) => Date.parse(s.endedAt)));
  return {
    id: `${DEMO_ID_PREFIX}${id}`,
    name,
    sessionId,
    userId,
    status,
    tags: [DEMO_TAG, ...tags],
    metadata,
    // As an SDK reports them: the sums over its model calls, and the run's own length.
    totalCost: Math.round(run.spans.reduce((n, s) => n + (s.costUsd ?? 0), 0) * 1e8) / 1e8,
    totalTokens: run.spans.reduce((n, s) => n + (s.tokenCount ?? 0), 0),
    totalDuration: end - run.start,
    startedAt: run.at(0),
    endedAt: new Date(end).toISOString(),
    spans: run.spans,
    decisionPoints: run.decisions,
    events: run.events,
  };
}
