// A small dataset for the insights and list-filter tests, whose figures the tests work
// out by hand. Window of interest: 2026-03-01T00:00:00Z (inclusive) to 2026-03-02 (exclusive).
//
//  trace  name      status     startedAt                  tags          session  decision points (type: chosen | alternatives; durationMs, costUsd)
//  T1     checkout  COMPLETED  03-01 01:00                prod          s1       TOOL: {tool:search} | {tool:search},{tool:calc}; 10, 0.01
//                                                                                TOOL: "calc" | "search"; -, 0.03
//                                                                                RETRY: (absent) | -; 4, -
//  T2     checkout  ERROR      03-01 02:00                prod, eu      s2       TOOL: {name:search, tool:5} | "calc",{tool:web}; 20, 0.05
//                                                                                ESCALATION: {agent:human} | {agent:human},{agent:bot}; -, -
//                                                                                RETRY: 1.0 | 1, 2.50; 6, -
//                                                                                TOOL: "search" | -; -, -
//  T3     refund    ERROR      03-01 03:00                staging       s1       ROUTING: {route:billing} | {route:support}; 8, 0.02
//                                                                                TOOL: {tool:calc} | -; 30, -
//  T4     refund    COMPLETED  03-01 23:59:59.999         prod          s3       ROUTING: {route:support} | {route:billing},{route:support}; -, 0.04
//                                                                                ESCALATION: "human" | -; 12, 0.5  (timestamp after the window: counts by its trace)
//  T5     chat      RUNNING    03-01 00:00 (window start)  -             -        none
//  T6     checkout  ERROR      03-02 00:00 (window end)   prod          s1       TOOL: {tool:search} | -; 100, 1   (decision inside the window, trace not)
//                                                                                RETRY: "again" | -
//  T7     checkout  COMPLETED  02-28 23:59:59.999         dev           s2       TOOL: "calc" | "search"; 100, 1
import { makeTrace } from './fixtures';

export const WINDOW = { from: '2026-03-01T00:00:00.000Z', to: '2026-03-02T00:00:00.000Z' };

/** Trace ids, unique per call so that files sharing a database never collide. */
export interface DatasetIds {
  T1: string;
  T2: string;
  T3: string;
  T4: string;
  T5: string;
  T6: string;
  T7: string;
}

let run = 0;

function dp(id: string, type: string, chosen: unknown, alternatives: unknown[], durationMs: number | null, costUsd: number | null, timestamp: string) {
  const point: Record<string, unknown> = { id, type, alternatives, durationMs, costUsd, timestamp };
  if (chosen !== undefined) point.chosen = chosen;
  return point;
}

/** The ingest body (JSON text: some numbers must be stored as written, 1.0 and 2.50) and its ids. */
export function insightsDataset(): { body: string; ids: DatasetIds } {
  run += 1;
  const p = `ins${process.pid}-${run}-`;
  const ids: DatasetIds = { T1: `${p}T1`, T2: `${p}T2`, T3: `${p}T3`, T4: `${p}T4`, T5: `${p}T5`, T6: `${p}T6`, T7: `${p}T7` };
  const trace = (id: string, name: string, status: string, startedAt: string, tags: string[], sessionId: string | null, decisionPoints: unknown[]) =>
    makeTrace({ id, name, status, startedAt, tags, sessionId, decisionPoints, endedAt: null, spans: [], events: [] });
  const traces = [
    trace(ids.T1, 'checkout', 'COMPLETED', '2026-03-01T01:00:00.000Z', ['prod'], 's1', [
      dp('d1', 'TOOL_SELECTION', { tool: 'search' }, [{ tool: 'search' }, { tool: 'calc' }], 10, 0.01, '2026-03-01T01:00:01Z'),
      dp('d2', 'TOOL_SELECTION', 'calc', ['search'], null, 0.03, '2026-03-01T01:00:02Z'),
      dp('d3', 'RETRY', undefined, [], 4, null, '2026-03-01T01:00:03Z'),
    ]),
    trace(ids.T2, 'checkout', 'ERROR', '2026-03-01T02:00:00.000Z', ['prod', 'eu'], 's2', [
      dp('d1', 'TOOL_SELECTION', { name: 'search', tool: 5 }, ['calc', { tool: 'web' }], 20, 0.05, '2026-03-01T02:00:01Z'),
      dp('d2', 'ESCALATION', { agent: 'human' }, [{ agent: 'human' }, { agent: 'bot' }], null, null, '2026-03-01T02:00:02Z'),
      dp('d3', 'RETRY', 'NUMBER_1_0', [1, 'NUMBER_2_50'], 6, null, '2026-03-01T02:00:03Z'),
      dp('d4', 'TOOL_SELECTION', 'search', [], null, null, '2026-03-01T02:00:04Z'),
    ]),
    trace(ids.T3, 'refund', 'ERROR', '2026-03-01T03:00:00.000Z', ['staging'], 's1', [
      dp('d1', 'ROUTING', { route: 'billing' }, [{ route: 'support' }], 8, 0.02, '2026-03-01T03:00:01Z'),
      dp('d2', 'TOOL_SELECTION', { tool: 'calc' }, [], 30, null, '2026-03-01T03:00:02Z'),
    ]),
    trace(ids.T4, 'refund', 'COMPLETED', '2026-03-01T23:59:59.999Z', ['prod'], 's3', [
      dp('d1', 'ROUTING', { route: 'support' }, [{ route: 'billing' }, { route: 'support' }], null, 0.04, '2026-03-01T23:59:59.999Z'),
      dp('d2', 'ESCALATION', 'human', [], 12, 0.5, '2026-03-02T00:00:05Z'),
    ]),
    trace(ids.T5, 'chat', 'RUNNING', '2026-03-01T00:00:00.000Z', [], null, []),
    trace(ids.T6, 'checkout', 'ERROR', '2026-03-02T00:00:00.000Z', ['prod'], 's1', [
      dp('d1', 'TOOL_SELECTION', { tool: 'search' }, [], 100, 1, '2026-03-01T12:00:00Z'),
      dp('d2', 'RETRY', 'again', [], null, null, '2026-03-01T12:00:01Z'),
    ]),
    trace(ids.T7, 'checkout', 'COMPLETED', '2026-02-28T23:59:59.999Z', ['dev'], 's2', [
      dp('d1', 'TOOL_SELECTION', 'calc', ['search'], 100, 1, '2026-03-01T00:00:01Z'),
    ]),
  ];
  const body = JSON.stringify({ traces }).replace('"NUMBER_1_0"', '1.0').replace('"NUMBER_2_50"', '2.50');
  return { body, ids };
}
