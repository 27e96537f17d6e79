// Seeded, repeatable generator of realistic agent traces in the shape POST /api/traces
// takes. Every trace is derived from (seed, index) alone, so any trace can be rebuilt
// without generating the ones before it (seeding in chunks, templates, tests).
import { DECISION_TYPES, EVENT_TYPES, SPAN_TYPES, type JsonValue } from '@/lib/features/traces/shared';

// ---------- PRNG ----------

/** A small, fast, seedable PRNG (sfc32). Not for cryptography. */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(...seeds: number[]) {
    // Mix the seeds into four words (splitmix-style), then discard a few outputs.
    let h = 0x9e3779b9;
    const words = [0, 0, 0, 0];
    const input = seeds.length ? seeds : [0];
    for (let i = 0; i < 4; i++) {
      for (const s of input) {
        h = Math.imul(h ^ (s >>> 0), 0x85ebca6b) ^ (h >>> 13);
        h = Math.imul(h ^ ((s / 0x100000000) >>> 0), 0xc2b2ae35) ^ (h >>> 16);
      }
      h = Math.imul(h ^ (i + 1), 0x27d4eb2d);
      words[i] = (h ^ (h >>> 15)) >>> 0;
    }
    [this.a, this.b, this.c, this.d] = words;
    for (let i = 0; i < 12; i++) this.nextU32();
  }

  nextU32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.nextU32() / 0x100000000;
  }

  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  /** Log-uniform in [min, max]: many small values, some large, like real payloads. */
  logUniform(min: number, max: number): number {
    return Math.round(Math.exp(Math.log(min) + this.next() * (Math.log(max) - Math.log(min))));
  }

  hex(chars: number): string {
    let out = '';
    while (out.length < chars) out += this.nextU32().toString(16).padStart(8, '0');
    return out.slice(0, chars);
  }
}

// ---------- Shapes (what POST /api/traces accepts) ----------

export interface GenDecisionPoint {
  id: string;
  type: (typeof DECISION_TYPES)[number];
  reasoning: string;
  chosen: JsonValue;
  alternatives: JsonValue[];
  contextSnapshot: JsonValue;
  durationMs: number;
  costUsd: number;
  parentSpanId: string | null;
  timestamp: string;
}

export interface GenSpan {
  id: string;
  parentSpanId: string | null;
  name: string;
  type: (typeof SPAN_TYPES)[number];
  input: JsonValue;
  output: JsonValue;
  tokenCount: number;
  costUsd: number;
  durationMs: number;
  status: 'RUNNING' | 'COMPLETED' | 'ERROR';
  statusMessage: string | null;
  startedAt: string;
  endedAt: string | null;
  metadata: JsonValue;
}

export interface GenEvent {
  id: string;
  spanId: string | null;
  type: (typeof EVENT_TYPES)[number];
  name: string;
  metadata: JsonValue;
  timestamp: string;
}

export interface GenTrace {
  id: string;
  name: string;
  sessionId: string | null;
  status: 'RUNNING' | 'COMPLETED' | 'ERROR';
  tags: string[];
  metadata: JsonValue;
  totalCost: number;
  totalTokens: number;
  totalDuration: number;
  startedAt: string;
  endedAt: string | null;
  decisionPoints: GenDecisionPoint[];
  spans: GenSpan[];
  events: GenEvent[];
}

export interface TraceShape {
  decisionPoints: number;
  spans: number;
  events: number;
  /** Depth of the span tree (root = 1); the tree reaches exactly this depth when spans >= depth. */
  depth: number;
  /** Bytes of JSON for each span input and output, drawn log-uniformly in [min, max]. */
  payloadMin: number;
  payloadMax: number;
}

/** The realistic trace: 10 decision points, 50 spans 5 deep, 10 events, 100 B-2 KB payloads. */
export const FULL_SHAPE: TraceShape = {
  decisionPoints: 10,
  spans: 50,
  events: 10,
  depth: 5,
  payloadMin: 100,
  payloadMax: 2048,
};

/** Small traces for the bulk-seeded list scenarios: the list shows counts, never payloads. */
export const LIST_SEED_SHAPE: TraceShape = {
  decisionPoints: 1,
  spans: 2,
  events: 1,
  depth: 2,
  payloadMin: 60,
  payloadMax: 160,
};

// ---------- Vocabulary ----------

export const AGENTS = [
  'support-agent',
  'billing-agent',
  'research-agent',
  'coding-agent',
  'sales-assistant',
  'triage-bot',
  'onboarding-guide',
  'data-analyst',
  'travel-planner',
  'hr-helper',
  'legal-reviewer',
  'ops-runbook',
] as const;

export const TASKS = [
  'refund request',
  'password reset',
  'invoice dispute',
  'summarize ticket',
  'draft reply',
  'lookup order',
  'classify intent',
  'escalate issue',
  'book flight',
  'generate report',
  'fix failing test',
  'review contract',
  'answer faq',
  'update address',
  'cancel subscription',
  'plan itinerary',
  'translate message',
  'extract entities',
  'schedule meeting',
  'diagnose outage',
  'compare plans',
  'write sql',
  'code review',
  'search knowledge base',
  'collect feedback',
] as const;

/** A search term matching one task in TASKS (~1/25 of the names), in a different case. */
export const SEARCH_TERM = 'Refund';

const TAGS = ['prod', 'staging', 'eval', 'beta', 'v2', 'canary', 'eu', 'us', 'batch', 'interactive'];
const MODELS = ['gpt-4o', 'gpt-4o-mini', 'claude-3-5-sonnet', 'llama-3-70b', 'mistral-large'];
const TOOLS = ['web_search', 'sql_query', 'http_get', 'calculator', 'kb_lookup', 'send_email', 'python'];
const WORDS = (
  'the customer asked about their order status and the agent checked the database before ' +
  'answering with a summary of recent activity including refunds invoices shipping dates ' +
  'tracking numbers and account settings then proposed next steps for resolution while ' +
  'keeping the tone friendly concise accurate and helpful to the user in every reply'
).split(' ');

/** Traces start between BASE_TIME - SPREAD and BASE_TIME, newest for the highest index. */
export const BASE_TIME = Date.UTC(2026, 10, 1);
const SPREAD_MS = 90 * 24 * 3600 * 1000;
/** Traces per session id, on average. */
export const SESSION_SIZE = 8;

function words(rng: Rng, bytes: number): string {
  let out = '';
  while (out.length < bytes) out += (out ? ' ' : '') + rng.pick(WORDS);
  return out.slice(0, Math.max(1, bytes));
}

/** A JSON object of roughly `bytes` bytes once serialised (within ~10%). */
export function payload(rng: Rng, bytes: number, kind: 'input' | 'output'): JsonValue {
  const base: Record<string, JsonValue> =
    kind === 'input'
      ? { model: rng.pick(MODELS), temperature: Math.round(rng.next() * 100) / 100, messages: [] }
      : { finishReason: rng.pick(['stop', 'length', 'tool_calls']), content: '' };
  const setText = (text: string) => {
    if (kind === 'input') base.messages = [{ role: 'user', content: text }];
    else base.content = text;
  };
  setText('');
  // Words are plain ASCII, so the serialised size is exact.
  setText(words(rng, Math.max(8, bytes - JSON.stringify(base).length)));
  return base;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** Deterministic trace id for (seed, index): 32 hex chars like an OpenTelemetry trace id. */
export function traceId(seed: number, index: number): string {
  return new Rng(seed, index, 0x7ace).hex(32);
}

export interface GenerateOptions {
  seed: number;
  index: number;
  shape?: TraceShape;
  /** Overrides the derived id (templates use a placeholder here). */
  id?: string;
  /** Total number of traces in the data set, spreads startedAt evenly; default 1e6. */
  population?: number;
}

/** One realistic trace, a pure function of (seed, index, shape). */
export function generateTrace(options: GenerateOptions): GenTrace {
  const { seed, index } = options;
  const shape = options.shape ?? FULL_SHAPE;
  const population = options.population ?? 1_000_000;
  const rng = new Rng(seed, index);

  const id = options.id ?? traceId(seed, index);
  // Newer index, newer trace: the first list page holds the highest indexes.
  const start = BASE_TIME - SPREAD_MS + Math.floor(((index + rng.next()) / population) * SPREAD_MS);
  const roll = rng.next();
  const status: GenTrace['status'] = roll < 0.05 ? 'RUNNING' : roll < 0.15 ? 'ERROR' : 'COMPLETED';

  // ----- spans: a tree exactly `depth` deep; parents start before their children -----
  const spans: GenSpan[] = [];
  const depthOf: number[] = [];
  let clock = start;
  let totalTokens = 0;
  let totalCost = 0;
  for (let i = 0; i < shape.spans; i++) {
    let parent = -1;
    if (i > 0 && i < shape.depth) parent = i - 1; // the spine guarantees the depth
    else if (i > 0) {
      // Any earlier span not already at the deepest level.
      do parent = rng.int(0, i - 1);
      while (depthOf[parent] >= shape.depth);
    }
    depthOf.push(parent < 0 ? 1 : depthOf[parent] + 1);
    clock += rng.int(1, 40);
    const type = i === 0 ? 'AGENT' : rng.pick(SPAN_TYPES);
    const tokens = type === 'LLM_CALL' ? rng.int(50, 4000) : 0;
    const cost = Math.round(tokens * 0.000002 * 1e6) / 1e6;
    const duration = rng.int(2, 3000);
    const spanRoll = rng.next();
    const spanStatus: GenSpan['status'] =
      status === 'RUNNING' && i === shape.spans - 1 ? 'RUNNING' : spanRoll < 0.04 ? 'ERROR' : 'COMPLETED';
    totalTokens += tokens;
    totalCost += cost;
    spans.push({
      id: rng.hex(16),
      parentSpanId: parent < 0 ? null : spans[parent].id,
      name: type === 'TOOL_CALL' ? rng.pick(TOOLS) : `${type.toLowerCase()}-${i}`,
      type,
      input: payload(rng, rng.logUniform(shape.payloadMin, shape.payloadMax), 'input'),
      output: spanStatus === 'RUNNING' ? null : payload(rng, rng.logUniform(shape.payloadMin, shape.payloadMax), 'output'),
      tokenCount: tokens,
      costUsd: cost,
      durationMs: duration,
      status: spanStatus,
      statusMessage: spanStatus === 'ERROR' ? 'upstream returned 502' : null,
      startedAt: iso(clock),
      endedAt: spanStatus === 'RUNNING' ? null : iso(clock + duration),
      metadata: { model: type === 'LLM_CALL' ? rng.pick(MODELS) : null, attempt: rng.int(1, 3) },
    });
  }

  const spanAt = (): string | null => (spans.length ? rng.pick(spans).id : null);
  const decisionPoints: GenDecisionPoint[] = [];
  for (let i = 0; i < shape.decisionPoints; i++) {
    const tool = rng.pick(TOOLS);
    decisionPoints.push({
      id: rng.hex(16),
      type: rng.pick(DECISION_TYPES),
      reasoning: words(rng, rng.int(60, 300)),
      chosen: { tool, confidence: Math.round(rng.next() * 100) / 100 },
      alternatives: [
        { tool: rng.pick(TOOLS), score: Math.round(rng.next() * 100) / 100 },
        { tool: rng.pick(TOOLS), score: Math.round(rng.next() * 100) / 100 },
      ],
      contextSnapshot: { turn: i + 1, memoryItems: rng.int(0, 12), summary: words(rng, rng.int(20, 120)) },
      durationMs: rng.int(1, 500),
      costUsd: Math.round(rng.next() * 1e4) / 1e7,
      parentSpanId: spanAt(),
      timestamp: iso(start + rng.int(0, Math.max(1, clock - start))),
    });
  }

  const events: GenEvent[] = [];
  for (let i = 0; i < shape.events; i++) {
    const type = rng.pick(EVENT_TYPES);
    events.push({
      id: rng.hex(16),
      spanId: spanAt(),
      type,
      name: `${type.toLowerCase()}-${i}`,
      metadata: { detail: words(rng, rng.int(20, 100)), code: rng.int(100, 599) },
      timestamp: iso(start + rng.int(0, Math.max(1, clock - start))),
    });
  }

  const tagCount = rng.int(0, 3);
  const tags: string[] = [];
  for (let i = 0; i < tagCount; i++) {
    const tag = rng.pick(TAGS);
    if (!tags.includes(tag)) tags.push(tag);
  }
  const agent = rng.pick(AGENTS);
  const task = rng.pick(TASKS);
  const totalDuration = clock - start + rng.int(1, 500);

  return {
    id,
    name: `${agent}: ${task} #${rng.int(1, 99999)}`,
    sessionId: rng.next() < 0.9 ? `sess-${seed}-${Math.floor(index / SESSION_SIZE)}` : null,
    status,
    tags,
    metadata: { env: rng.pick(['prod', 'staging']), region: rng.pick(['eu-west-1', 'us-east-1']), userId: `u-${rng.int(1, 50000)}` },
    totalCost: Math.round(totalCost * 1e6) / 1e6,
    totalTokens,
    totalDuration,
    startedAt: iso(start),
    endedAt: status === 'RUNNING' ? null : iso(start + totalDuration),
    decisionPoints,
    spans,
    events,
  };
}

/** Records a trace contributes to the ingest records-per-second count. */
export function recordCount(trace: Pick<GenTrace, 'decisionPoints' | 'spans' | 'events'>): number {
  return 1 + trace.decisionPoints.length + trace.spans.length + trace.events.length;
}

/** Depth of a span forest (root = 1), computed iteratively. */
export function spanTreeDepth(spans: Pick<GenSpan, 'id' | 'parentSpanId'>[]): number {
  const byId = new Map(spans.map((s) => [s.id, s]));
  const depth = new Map<string, number>();
  let max = 0;
  for (const span of spans) {
    const chain: string[] = [];
    let cur: Pick<GenSpan, 'id' | 'parentSpanId'> | undefined = span;
    while (cur && !depth.has(cur.id)) {
      chain.push(cur.id);
      cur = cur.parentSpanId ? byId.get(cur.parentSpanId) : undefined;
      if (chain.length > spans.length) throw new Error('cycle in span tree');
    }
    let d = cur ? depth.get(cur.id)! : 0;
    for (let i = chain.length - 1; i >= 0; i--) depth.set(chain[i], ++d);
    max = Math.max(max, d);
  }
  return max;
}
