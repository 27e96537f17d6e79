// A refund agent's runs that part at their second decision: the runs that searched the
// knowledge base instead of looking the order up mostly failed. Used by the paths verbs'
// tests and the MCP server's ("why did run-x fail, and which runs took the same turn?").
//
//   ok-1..ok-4  COMPLETED  billing > lookup_order > issue_refund
//   kb-1, kb-2  ERROR      billing > search_kb > human
//   kb-3        COMPLETED  billing > search_kb > human > issue_refund
//   kb-4        ERROR      billing > search_kb > apologize
//   run-x       ERROR      billing > search_kb > human       (a failed span and an ERROR event)
//   other-1     ERROR      another agent's run: billing > search_kb
import type { Database } from '@/lib/db/open';
import { ingestTraces } from '@/lib/features/ingest/ingest';
import { validateIngestBody } from '@/lib/features/ingest/validate';
import { testContext } from './context';

export const AGENT = 'refund-agent';
export const RUN_X = 'run-x';
export const DAY = { from: '2026-03-01T00:00:00.000Z', to: '2026-03-02T00:00:00.000Z' };
const t0 = Date.parse('2026-03-01T09:00:00.000Z');
const iso = (ms: number) => new Date(t0 + ms).toISOString();

type Choice = ['ROUTING' | 'TOOL_SELECTION' | 'ESCALATION', string, string[]];
const BILLING: Choice = ['ROUTING', 'billing', ['shipping', 'sales']];
const LOOKUP: Choice = ['TOOL_SELECTION', 'lookup_order', ['search_kb', 'issue_refund']];
const SEARCH: Choice = ['TOOL_SELECTION', 'search_kb', ['lookup_order', 'issue_refund']];
const REFUND: Choice = ['TOOL_SELECTION', 'issue_refund', ['apologize']];
const HUMAN: Choice = ['ESCALATION', 'human', ['retry']];
const APOLOGIZE: Choice = ['TOOL_SELECTION', 'apologize', ['issue_refund']];

interface Run {
  id: string;
  name?: string;
  status: 'COMPLETED' | 'ERROR';
  choices: Choice[];
}

export const RUNS: Run[] = [
  ...[1, 2, 3, 4].map((n): Run => ({ id: `ok-${n}`, status: 'COMPLETED', choices: [BILLING, LOOKUP, REFUND] })),
  { id: 'kb-1', status: 'ERROR', choices: [BILLING, SEARCH, HUMAN] },
  { id: 'kb-2', status: 'ERROR', choices: [BILLING, SEARCH, HUMAN] },
  { id: 'kb-3', status: 'COMPLETED', choices: [BILLING, SEARCH, HUMAN, REFUND] },
  { id: 'kb-4', status: 'ERROR', choices: [BILLING, SEARCH, APOLOGIZE] },
  { id: RUN_X, status: 'ERROR', choices: [BILLING, SEARCH, HUMAN] },
  { id: 'other-1', name: 'other-agent', status: 'ERROR', choices: [BILLING, SEARCH] },
];

function traceOf(run: Run, start: number): Record<string, unknown> {
  const failed = run.status === 'ERROR';
  const end = start + 4000;
  const toolSpans = run.choices
    .filter(([type]) => type === 'TOOL_SELECTION')
    .map(([, label], i) => ({
      id: `tool-${label}`,
      parentSpanId: 'root',
      name: label,
      type: 'TOOL_CALL',
      status: failed && label === 'search_kb' ? 'ERROR' : 'COMPLETED',
      ...(failed && label === 'search_kb' ? { statusMessage: 'search_kb: index unavailable (503)' } : {}),
      input: { query: `order 42 refund ${'x'.repeat(50)}` },
      output: failed && label === 'search_kb' ? null : { ok: true },
      durationMs: 200,
      startedAt: iso(start + 1000 + i * 500),
      endedAt: iso(start + 1200 + i * 500),
    }));
  return {
    id: run.id,
    name: run.name ?? AGENT,
    sessionId: `session-${run.id}`,
    userId: 'user-7',
    status: run.status,
    tags: ['prod'],
    metadata: {},
    totalCost: 0.02,
    totalTokens: 1200,
    totalDuration: 4000,
    startedAt: iso(start),
    endedAt: iso(end),
    spans: [
      {
        id: 'root',
        name: 'agent',
        type: 'AGENT',
        status: run.status,
        input: { message: 'I want a refund for order 42' },
        output: failed ? 'Sorry, something went wrong.' : 'Your refund is on its way.',
        durationMs: 4000,
        startedAt: iso(start),
        endedAt: iso(end),
      },
      {
        id: 'llm-0',
        parentSpanId: 'root',
        name: 'plan',
        type: 'LLM_CALL',
        status: 'COMPLETED',
        input: { messages: [{ role: 'user', content: `I want a refund for order 42. ${'Long context. '.repeat(300)}` }] },
        output: 'Route to billing.',
        tokenCount: 1200,
        costUsd: 0.02,
        durationMs: 600,
        metadata: { 'gen_ai.request.model': 'gpt-4o-mini' },
        startedAt: iso(start + 100),
        endedAt: iso(start + 700),
      },
      ...toolSpans,
    ],
    decisionPoints: run.choices.map(([type, label, alternatives], i) => ({
      id: `d${i + 1}`,
      type,
      reasoning: `step ${i + 1}`,
      chosen: type === 'TOOL_SELECTION' ? { tool: label } : label,
      alternatives: alternatives.map((a) => (type === 'TOOL_SELECTION' ? { tool: a } : a)),
      parentSpanId: 'root',
      timestamp: iso(start + 800 + i * 500),
    })),
    events: failed ? [{ id: 'e1', type: 'ERROR', name: 'tool failed', spanId: 'tool-search_kb', timestamp: iso(start + 1700) }] : [],
  };
}

/** The runs as a POST /api/traces body: ten minutes apart, run-x last of its agent. */
export function wrongTurnsBody(): { traces: Record<string, unknown>[] } {
  return { traces: RUNS.map((run, i) => traceOf(run, i * 600_000)) };
}

/** Ingests the runs into the database. */
export async function ingestWrongTurns(db: Database): Promise<void> {
  await ingestTraces(testContext(db), validateIngestBody(wrongTurnsBody(), { maxBatchTraces: 100, maxChildrenPerTrace: 100 }));
}
