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

/**
 * One support conversation: what the customer opens with, what the lookup finds, the
 * agent's answer, the questions that follow (with their answers), and how a billing
 * conversation ends when the customer wants their money back.
 */
interface SupportCase {
  opening: string;
  found: Json;
  answer: string;
  followUps: ReadonlyArray<{ question: string; answer: string }>;
  refund?: { ask: string; done: string };
}

const CASES: Record<Route, SupportCase[]> = {
  billing: [
    {
      opening: 'I was charged twice for order #{n}.',
      found: { order: '#{n}', charges: [{ amount: '$49.00', at: 'Mon 09:14' }, { amount: '$49.00', at: 'Mon 09:15' }], status: 'delivered' },
      answer: 'Sorry about that! I can see two charges of $49.00 for order #{n}, a minute apart: the second one duplicates the first. I can refund it to the card you paid with.',
      followUps: [
        { question: 'How long would a refund take?', answer: 'Refunds reach your card in 3-5 business days, and you get an email the moment we send one.' },
        { question: 'Will the duplicate show as pending until then?', answer: 'It may show as pending for a day or two; once it is refunded it disappears instead of showing as a separate credit.' },
        { question: 'Can you make sure this does not happen on my next order?', answer: 'The payment page was submitted twice. I have noted it on your account, and a fix for double submissions ships this week.' },
      ],
      refund: { ask: 'Yes please, refund the duplicate charge.', done: 'Done: $49.00 is on its way back to your card. It usually shows within 3-5 business days; a confirmation email is on its way.' },
    },
    {
      opening: 'Order #{n} arrived broken: the handle of one mug snapped off.',
      found: { order: '#{n}', items: ['Stoneware mug x2'], delivered: 'Tuesday', total: '$36.00' },
      answer: 'Sorry to hear that! Order #{n} (two stoneware mugs, delivered Tuesday) is within the 30-day window, so you can have a replacement or your money back, and there is no need to send the broken one back.',
      followUps: [
        { question: 'Do you have the mug in blue instead?', answer: 'Yes, the stoneware mug comes in blue and it is in stock: I can send a blue one as the replacement at no extra cost.' },
        { question: 'Should I return the broken one anyway?', answer: 'No need. If you would rather, reply "label" and I will email you a prepaid return label.' },
        { question: 'Is the rest of the order covered too?', answer: 'Every order ships insured: if anything else turns up damaged within 30 days, we sort it out the same way.' },
      ],
      refund: { ask: 'I would rather have a refund for the broken mug, please.', done: 'Done: $18.00 for the broken mug is refunded to your original payment method (3-5 business days). Keep the mug.' },
    },
    {
      opening: 'Why is my invoice for #{n} higher than the quote?',
      found: { order: '#{n}', quoted: '$120.00', invoiced: '$138.00', extra: [{ line: 'Express shipping', amount: '$18.00' }] },
      answer: 'The invoice is $18.00 above the quote because express shipping was added at checkout; the quote was for standard shipping.',
      followUps: [
        { question: 'When was express added? I do not remember choosing it.', answer: 'On the delivery step at checkout: it is pre-selected for orders over $100, which we know is easy to miss.' },
        { question: 'Does express at least mean it arrives tomorrow?', answer: 'Yes: express orders placed before 2 pm ship the same day and arrive the next business day.' },
        { question: 'Can I get a corrected invoice for my records?', answer: 'Of course: a corrected invoice goes to the email address on file as soon as anything on the order changes.' },
      ],
      refund: { ask: 'I never wanted express shipping. Please refund the $18.', done: 'Done: the $18.00 express shipping charge is refunded, and a corrected invoice is on its way to your inbox.' },
    },
  ],
  technical: [
    {
      opening: 'The app crashes when I upload a photo.',
      found: { found: 2, article: 'Uploading photos larger than 20 MB', summary: 'Photos over 20 MB close version 5.2 of the app; 5.2.1 fixes it.' },
      answer: 'Thanks for reporting it! Photos over 20 MB make version 5.2 of the app close; version 5.2.1, out today, fixes it, so updating from the app store should sort it out.',
      followUps: [
        { question: 'I updated, but a 25 MB photo still fails.', answer: 'Version 5.2.1 shrinks large photos before uploading, which can take up to a minute at 25 MB. If it still closes, tell me whether the photo is HEIC or JPEG and we will look into it.' },
        { question: 'Is there a size limit at all?', answer: 'Each photo can be up to 50 MB; anything larger is refused with a message instead of a crash.' },
        { question: 'Can I upload from the website in the meantime?', answer: 'Yes, the website is not affected: go to Library > Upload and drag the photo in.' },
      ],
    },
    {
      opening: 'I cannot log in since the update.',
      found: { found: 1, article: 'Signing in after the 5.2 update', summary: 'The update signs everyone out once; passwords saved for the old version are not offered.' },
      answer: 'The update signs everyone out once, and the app cannot see passwords saved for the old version. Type your password once (or use "Forgot password") and it is remembered again.',
      followUps: [
        { question: 'The reset email never arrives.', answer: 'Reset emails come from no-reply@acme.example and can take up to 10 minutes, so please check your spam folder. I can also send one to the other address on file.' },
        { question: 'Now it says my account is locked.', answer: 'After five failed attempts an account locks for 15 minutes to keep it safe; after that, the new password works.' },
        { question: 'Does this affect two-factor authentication?', answer: 'No, two-factor stays on: after your password the app asks for the code as before.' },
      ],
    },
    {
      opening: 'Export to CSV gives me an empty file.',
      found: { found: 3, article: 'Exporting reports to CSV', summary: 'An export holds what the report shows; a date range without data exports headers only.' },
      answer: 'An export holds what the report currently shows, so a date range without data gives a file with headers only. Check the date range at the top of the report and export again.',
      followUps: [
        { question: 'The range is all of last month and the report shows data.', answer: 'Then it is the known issue with reports over 10,000 rows: the export times out and leaves an empty file. Two half-month exports work until the fix ships next week.' },
        { question: 'Can the export arrive by email every week?', answer: 'Yes: on the report choose Export > Schedule and pick daily, weekly or monthly; the CSV arrives as an attachment.' },
        { question: 'Excel shows everything in one column.', answer: 'The file uses commas: in Excel open it through Data > From Text/CSV and pick "Comma" to get the columns.' },
      ],
    },
  ],
  account: [
    {
      opening: 'How do I change the email on my account?',
      found: { found: 1, article: 'Changing your email address', summary: 'Settings > Account > Email; a confirmation link goes to the new address.' },
      answer: 'Go to Settings > Account > Email and enter the new address. We send a confirmation link there, and the change takes effect once you click it.',
      followUps: [
        { question: 'The confirmation link says it has expired.', answer: 'Links are valid for 24 hours: request a new one from the same page, and the old one stops working.' },
        { question: 'Will my order history move to the new email?', answer: 'Yes, everything stays on your account; only the address we write to changes.' },
        { question: 'Can I use the old email for a second account?', answer: 'Yes, once the change is confirmed the old address is free to use for another account.' },
      ],
    },
    {
      opening: 'Please delete my account and data.',
      found: { found: 2, article: 'Deleting your account', summary: 'Settings > Privacy > Delete account; data is erased within 30 days; open orders must be delivered first.' },
      answer: 'You can do it under Settings > Privacy > Delete account. Everything is erased within 30 days, and any open order needs to be delivered first.',
      followUps: [
        { question: 'One order is still in transit. Do I have to wait?', answer: 'Yes, until it is delivered (tracking says Thursday); after that the delete button becomes available.' },
        { question: 'Can I download my data first?', answer: 'Yes: Settings > Privacy > Download my data prepares a ZIP of your orders, addresses and messages within an hour.' },
        { question: 'Will you keep my invoices?', answer: 'Invoices are kept for 10 years because tax law requires it; everything else is erased.' },
      ],
    },
    {
      opening: 'Can I add a second user to my plan?',
      found: { found: 2, article: 'Team members on Plus and Pro', summary: 'Plus includes 3 seats, Pro 10; invite from Settings > Team.' },
      answer: 'Yes: your Plus plan includes 3 seats and you use one. Invite them from Settings > Team with their email address.',
      followUps: [
        { question: 'Can they see my payment details?', answer: 'No: team members see orders and reports, never payment methods or invoices unless you make them an owner.' },
        { question: 'What if I need a fourth seat later?', answer: 'Plus stops at 3 seats; Pro has 10 for $12 more a month, prorated from the day you switch.' },
        { question: 'Do invitations expire?', answer: 'Invitations are valid for 7 days, and you can resend one from Settings > Team at any time.' },
      ],
    },
  ],
};
type Route = 'billing' | 'technical' | 'account';
const ROUTES: Route[] = ['billing', 'technical', 'account'];

/** A support conversation under way: its case, its order number, and what was said so far. */
interface SupportConversation {
  route: Route;
  supportCase: SupportCase;
  order: number;
  history: Json[];
}

function fill(text: string, n: number): string {
  return text.replaceAll('{n}', String(n));
}

/** A case's lookup result with its order number filled in. */
function filled(value: Json, n: number): Json {
  return JSON.parse(fill(JSON.stringify(value), n)) as Json;
}

/** Route confidences that sum to 1, the chosen one highest. */
function confidences(rnd: () => number, chosen: Route): Record<Route, number> {
  const top = 0.55 + rnd() * 0.4;
  const others = ROUTES.filter((r) => r !== chosen);
  const split = rnd() * (1 - top);
  const round = (x: number) => Math.round(x * 100) / 100;
  return { [chosen]: round(top), [others[0]]: round(split), [others[1]]: round(1 - top - split) } as Record<Route, number>;
}

/**
 * One turn of the support agent: intent, routing with confidences, a tool, a reply that
 * follows from what was said before; refunds fail and escalate.
 */
function supportTurn(run: Run, n: number, chat: SupportConversation, wantsRefund: boolean): Status {
  const { rnd } = run;
  const { route, supportCase } = chat;
  // A draw that once picked the question: kept so every later draw, and so the demo's
  // figures that tests and docs pin, stay as they are.
  rnd();
  const question = fill(
    n === 0 ? supportCase.opening : wantsRefund && supportCase.refund ? supportCase.refund.ask : supportCase.followUps[Math.min(n, supportCase.followUps.length) - 1].question,
    chat.order,
  );
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
  const args: Json = tool === 'search_help_center' ? { query: question.slice(0, 40) } : { order: `#${chat.order}` };
  const callId = `call_${n}_${tool}`;
  const offered = ['lookup_order', 'issue_refund', 'search_help_center'];
  const asked: Json[] = [system, ...chat.history, { role: 'user', content: question }];
  run.llm('plan', 'agent', 'choose next step', 'gpt-4o', asked, assistantCall(null, { id: callId, name: tool, args }), {
    input: { messages: asked, tools: tools(offered) },
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
  const toolSpan = run.tool('tool', 'agent', tool, args, tool === 'issue_refund' ? { refunded: true, order: `#${chat.order}` } : filled(supportCase.found, chat.order), callId, fails ? 'payments-api: 502 Bad Gateway' : undefined);

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
    const answer = fill(
      tool === 'issue_refund' && supportCase.refund ? supportCase.refund.done : n === 0 ? supportCase.answer : supportCase.followUps[Math.min(n, supportCase.followUps.length) - 1].answer,
      chat.order,
    );
    run.llm('reply', 'agent', 'write reply', 'claude-sonnet-4-5', [...asked, assistantCall(null, { id: callId, name: tool, args }), { role: 'tool', tool_call_id: callId, content: JSON.stringify(toolSpan.output) }], {
      role: 'assistant',
      content: answer,
    });
    root.output = { message: answer };
    chat.history.push({ role: 'user', content: question }, { role: 'assistant', content: answer });
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
    const chat: SupportConversation = { route, supportCase: CASES[route][Math.floor(s / 3) % CASES[route].length], order: 4101 + s * 7, history: [] };
    for (let turn = 0; turn < turns; turn++) {
      const run = new Run(start + turn * 90_000, rnd);
      const wantsRefund = route === 'billing' && turn === turns - 1 && rnd() < 0.8;
      const status = supportTurn(run, turn, chat, wantsRefund);
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
