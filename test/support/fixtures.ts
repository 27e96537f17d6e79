// Builders for valid ingest payloads; tests override what they exercise.
let counter = 0;

/** A unique id per call, so tests sharing a database never collide. */
export function uid(prefix = 't'): string {
  counter += 1;
  return `${prefix}-${process.pid}-${Date.now().toString(36)}-${counter}`;
}

export function makeTrace(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: uid(),
    name: 'support-agent run',
    sessionId: 'sess-1',
    status: 'COMPLETED',
    tags: ['prod'],
    metadata: { model: 'gpt-x' },
    totalCost: 0.0123,
    totalTokens: 1500,
    totalDuration: 2300,
    startedAt: '2026-01-02T03:04:05.000Z',
    endedAt: '2026-01-02T03:04:07.300Z',
    decisionPoints: [
      {
        id: 'd1',
        type: 'TOOL_SELECTION',
        reasoning: 'The user asked for the weather',
        chosen: { tool: 'weather' },
        alternatives: [{ tool: 'search' }, { tool: 'calculator' }],
        contextSnapshot: { turn: 1 },
        durationMs: 12,
        costUsd: 0.001,
        parentSpanId: 's1',
        timestamp: '2026-01-02T03:04:05.100Z',
      },
    ],
    spans: [
      {
        id: 's1',
        name: 'agent',
        type: 'AGENT',
        status: 'COMPLETED',
        startedAt: '2026-01-02T03:04:05.000Z',
        endedAt: '2026-01-02T03:04:07.300Z',
        durationMs: 2300,
      },
      {
        id: 's2',
        parentSpanId: 's1',
        name: 'llm',
        type: 'LLM_CALL',
        status: 'COMPLETED',
        input: { prompt: 'hi' },
        output: 'hello',
        tokenCount: 1500,
        costUsd: 0.0123,
        durationMs: 900,
        startedAt: '2026-01-02T03:04:05.200Z',
      },
    ],
    events: [{ id: 'e1', spanId: 's2', type: 'RETRY', name: 'rate limited', timestamp: '2026-01-02T03:04:05.300Z' }],
    ...overrides,
  };
}
