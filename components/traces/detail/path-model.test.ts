import { describe, expect, it } from 'vitest';
import { forkId } from '@/lib/features/paths/ids';
import { pathOf, type Step } from '@/lib/features/paths/steps';
import { indexToolSpans } from '@/lib/features/traces/decision-outcome';
import type { DecisionPointRecord, EventRecord, SpanRecord, TraceDetail } from '@/lib/features/traces/types';
import { branchFigures, pathForks, pathRows, placeEvents } from './path-model';

const T0 = Date.parse('2026-03-01T10:00:00.000Z');
const at = (ms: number) => new Date(T0 + ms).toISOString();

function span(id: string, type: SpanRecord['type'], parentSpanId: string | null, start: number, status: SpanRecord['status'] = 'COMPLETED', metadata = {}): SpanRecord {
  return {
    id, traceId: 't', parentSpanId, name: id, type, input: null, output: null, tokenCount: null, costUsd: null, costSource: null,
    pricedModel: null, durationMs: 10, status, statusMessage: null, startedAt: at(start), endedAt: at(start + 10), metadata,
  };
}

function decision(id: string, type: DecisionPointRecord['type'], chosen: DecisionPointRecord['chosen'], alternatives: DecisionPointRecord['alternatives'], parentSpanId: string | null, ms: number): DecisionPointRecord {
  return { id, traceId: 't', type, reasoning: null, chosen, alternatives, contextSnapshot: {}, durationMs: null, costUsd: null, parentSpanId, timestamp: at(ms), inferred: false };
}

// A supervisor routes to two sub-agents; each picks tools, one of which fails.
const spans = [
  span('sup', 'AGENT', null, 0, 'ERROR'),
  span('billing', 'AGENT', 'sup', 100),
  span('llm', 'LLM_CALL', 'billing', 110),
  span('lookup', 'TOOL_CALL', 'billing', 150),
  span('tech', 'AGENT', 'sup', 500, 'ERROR'),
  span('restart', 'TOOL_CALL', 'tech', 600, 'ERROR'),
];
const decisions = [
  decision('r1', 'ROUTING', { route: 'billing', confidence: 0.7 }, [{ route: 'tech', confidence: 0.2 }, { route: 'sales', score: 0.1 }], 'sup', 50),
  decision('t1', 'TOOL_SELECTION', { tool: 'lookup' }, ['refund'], 'llm', 120),
  decision('t2', 'TOOL_SELECTION', { tool: 'lookup' }, ['escalate'], 'llm', 130),
  decision('r2', 'ROUTING', 'tech', ['billing'], 'sup', 450),
  decision('t3', 'TOOL_SELECTION', { tool: 'restart' }, [], 'tech', 550),
  decision('orphan', 'PLANNING', 'wrap up', ['retry'], 'gone', 550),
];
const trace: Pick<TraceDetail, 'decisionPoints' | 'spans' | 'status'> = { decisionPoints: [...decisions].reverse(), spans, status: 'ERROR' };

describe('pathForks', () => {
  const forks = pathForks(trace, indexToolSpans(spans));

  it('follows pathOf: its order, its folding, its steps', () => {
    const steps = forks.map((f) => f.step);
    expect(steps).toEqual(pathOf(decisions.map((d) => ({ ...d, parentStartedAt: spans.find((s) => s.id === d.parentSpanId)?.startedAt ?? null }))));
    expect(forks[1].step).toEqual({ type: 'TOOL_SELECTION', label: 'lookup', repeats: 2 });
    expect(forks[1].decisions.map((d) => d.id)).toEqual(['t1', 't2']);
    // Same time: the decision without a stored parent comes after.
    expect(forks.slice(3).map((f) => f.step.label)).toEqual(['restart', 'wrap up']);
  });

  it('gives each step its prefix and fork id, the ghosts with their confidence, the chosen one its own', () => {
    expect(forks[2].prefix).toEqual(forks.slice(0, 2).map((f) => f.step));
    expect(forks[2].forkId).toBe(forkId(forks[2].prefix));
    expect(forks[0].chosenConfidence).toBe(0.7);
    expect(forks[0].alternatives.map((a) => [a.label, a.confidence])).toEqual([['tech', 0.2], ['sales', 0.1]]);
    // Folded decisions offer the union of their alternatives.
    expect(forks[1].alternatives.map((a) => a.label)).toEqual(['refund', 'escalate']);
  });

  it('colours the chosen branch by the tool span it led to, the last one by the trace', () => {
    expect(forks[1].led).toMatchObject({ to: 'tool', status: 'COMPLETED', counts: { COMPLETED: 2, ERROR: 0, RUNNING: 0 } });
    expect(forks[3].led).toMatchObject({ to: 'tool', status: 'ERROR' });
    expect(forks[0].led).toMatchObject({ to: null, status: null });
    expect(forks[4].led).toMatchObject({ to: 'trace', status: 'ERROR' });
  });

  it('is empty for a trace without decisions', () => {
    expect(pathForks({ decisionPoints: [], spans, status: 'COMPLETED' }, indexToolSpans(spans))).toEqual([]);
  });
});

describe('pathRows', () => {
  it('nests forks under the agent spans they happened in, opening a level once', () => {
    const rows = pathRows(pathForks(trace, indexToolSpans(spans)), spans);
    expect(rows.map((r) => (r.kind === 'group' ? `${r.depth}:[${r.span.id}]` : `${r.depth}:${r.fork.step.label}`))).toEqual([
      '0:[sup]',
      '1:billing',
      '1:[billing]',
      '2:lookup',
      '1:tech',
      '1:[tech]',
      '2:restart',
      '0:wrap up',
    ]);
  });

  it('survives a parent cycle', () => {
    const cyclic = [span('a', 'AGENT', 'b', 0), span('b', 'CHAIN', 'a', 0)];
    const forks = pathForks({ decisionPoints: [decision('d', 'ROUTING', 'x', [], 'a', 5)], spans: cyclic, status: 'COMPLETED' }, indexToolSpans(cyclic));
    expect(pathRows(forks, cyclic).map((r) => r.kind)).toEqual(['group', 'group', 'fork']);
  });
});

describe('placeEvents', () => {
  const event = (id: string, type: EventRecord['type'], name: string, ms: number, spanId: string | null = null) => ({ id, type, name, spanId, timestamp: at(ms) });

  it('puts events on the step of their tool span, else of the last decision before them, folding repeats', () => {
    const forks = pathForks(trace, indexToolSpans(spans));
    const before = placeEvents(
      forks,
      [
        event('early', 'CUSTOM', 'start', 10),
        // On the restart tool span (step 4), though recorded later than every decision.
        event('e1', 'ERROR', 'restart failed', 900, 'restart'),
        event('r1', 'RETRY', 'retry lookup', 125),
        event('r2', 'RETRY', 'retry lookup', 140),
        event('f1', 'FALLBACK', 'ask billing', 460),
        event('u1', 'USER_FEEDBACK', 'thumbs down', 5000),
      ],
      indexToolSpans(spans),
    );
    expect(before).toEqual([{ type: 'CUSTOM', name: 'start', count: 1, firstId: 'early' }]);
    expect(forks[1].events).toEqual([{ type: 'RETRY', name: 'retry lookup', count: 2, firstId: 'r1' }]);
    expect(forks[2].events.map((g) => g.name)).toEqual(['ask billing']);
    expect(forks[3].events.map((g) => g.name)).toEqual(['restart failed']);
    // After the last decision: on the last step (same time as restart, after it in path order).
    expect(forks[4].events.map((g) => g.name)).toEqual(['thumbs down']);
    expect(forks[0].events).toEqual([]);
  });

  it('folds a thousand events into one entry', () => {
    const forks = pathForks(trace, indexToolSpans(spans));
    placeEvents(forks, Array.from({ length: 1000 }, (_, i) => event(`x${i}`, 'RETRY', 'again', 60)), indexToolSpans(spans));
    expect(forks[0].events).toEqual([{ type: 'RETRY', name: 'again', count: 1000, firstId: 'x0' }]);
  });
});

describe('branchFigures', () => {
  const s = (label: string, repeats = 1): Step => ({ type: 'TOOL_SELECTION', label, repeats });
  const paths = [
    { steps: [s('a'), s('b')], traces: 3, outcomes: { COMPLETED: 2, ERROR: 1, RUNNING: 0 } },
    { steps: [s('a'), s('c')], traces: 2, outcomes: { COMPLETED: 0, ERROR: 1, RUNNING: 1 } },
    { steps: [s('a', 2), s('b')], traces: 5, outcomes: { COMPLETED: 5, ERROR: 0, RUNNING: 0 } },
    { steps: [s('a')], traces: 4, outcomes: { COMPLETED: 4, ERROR: 0, RUNNING: 0 } },
  ];
  it('counts the runs with the same prefix, those that chose the option, and their error share', () => {
    expect(branchFigures(paths, [s('a')], { type: 'TOOL_SELECTION', label: 'c' })).toEqual({ offered: 5, chosen: 2, errorShareWhenChosen: 1 });
    expect(branchFigures(paths, [s('a')], { type: 'TOOL_SELECTION', label: 'b' })).toEqual({ offered: 5, chosen: 3, errorShareWhenChosen: 1 / 3 });
    expect(branchFigures(paths, [], { type: 'TOOL_SELECTION', label: 'a' })).toEqual({ offered: 14, chosen: 14, errorShareWhenChosen: 2 / 13 });
    expect(branchFigures(paths, [s('z')], { type: 'TOOL_SELECTION', label: 'a' })).toEqual({ offered: 0, chosen: 0, errorShareWhenChosen: null });
  });
});
