// A small dataset for the overview tests, whose figures the tests work out by hand.
// Window of interest: 2026-03-01T00:00Z (inclusive) to 04:00Z (exclusive), hourly buckets
// 00, 01 (empty), 02, 03.
//
//  trace  name      status     startedAt            endedAt (duration)   totalCost  spans' costUsd  totalTokens  spans' tokenCount  tags     session
//  A      checkout  COMPLETED  00:00 (window start)  00:00:01 (1000)      0.5        9               100          900                prod     s1
//  B      checkout  ERROR      00:30                 00:30:03 (3000)      -          0.1, 0.2, -     -            10, -, 30          prod     s2
//  C      refund    COMPLETED  00:45                 -                    -          (no span)       7            (no span)          staging  s1
//  D      refund    ERROR      02:10                 02:10:02 (2000)      -          -, -            -            5, -               prod     s3
//  H      refund    COMPLETED  02:20                 02:20:06.5 (6500)    0          5               -            (no span)          dev      s2
//  E      checkout  RUNNING    03:59:59.999          -                    0.25       -               50           -                  prod     s1
//  F      checkout  COMPLETED  04:00 (window end)    04:00:10 (10000)     100        -               1000         -                  prod     s1
//  G      checkout  COMPLETED  02-28 23:59:59.999    03-01 00:00:04.999   100        -               1000         -                  prod     s1
import { makeTrace } from './fixtures';

export const OVERVIEW_WINDOW = { from: '2026-03-01T00:00:00.000Z', to: '2026-03-01T04:00:00.000Z' };

let run = 0;

function span(id: string, costUsd: number | null, tokenCount: number | null, startedAt: string) {
  return { id, name: id, type: 'LLM_CALL', status: 'COMPLETED', costUsd, tokenCount, startedAt };
}

/** The ingest body; ids are unique per call so that files sharing a database never collide. */
export function overviewDataset(): { traces: Record<string, unknown>[] } {
  run += 1;
  const p = `ovw${process.pid}-${run}-`;
  const at = (time: string) => `2026-03-01T${time}Z`;
  const trace = (
    key: string,
    name: string,
    status: string,
    startedAt: string,
    endedAt: string | null,
    totalCost: number | null,
    totalTokens: number | null,
    tags: string[],
    sessionId: string,
    spans: unknown[],
  ) =>
    makeTrace({ id: `${p}${key}`, name, status, startedAt, endedAt, totalCost, totalTokens, totalDuration: null, tags, sessionId, spans, decisionPoints: [], events: [] });
  return {
    traces: [
      trace('A', 'checkout', 'COMPLETED', at('00:00:00.000'), at('00:00:01.000'), 0.5, 100, ['prod'], 's1', [span('s1', 9, 900, at('00:00:00.100'))]),
      trace('B', 'checkout', 'ERROR', at('00:30:00.000'), at('00:30:03.000'), null, null, ['prod'], 's2', [
        span('s1', 0.1, 10, at('00:30:00.100')),
        span('s2', 0.2, null, at('00:30:00.200')),
        span('s3', null, 30, at('00:30:00.300')),
      ]),
      trace('C', 'refund', 'COMPLETED', at('00:45:00.000'), null, null, 7, ['staging'], 's1', []),
      trace('D', 'refund', 'ERROR', at('02:10:00.000'), at('02:10:02.000'), null, null, ['prod'], 's3', [
        span('s1', null, 5, at('02:10:00.100')),
        span('s2', null, null, at('02:10:00.200')),
      ]),
      trace('H', 'refund', 'COMPLETED', at('02:20:00.000'), at('02:20:06.500'), 0, null, ['dev'], 's2', [span('s1', 5, null, at('02:20:00.100'))]),
      trace('E', 'checkout', 'RUNNING', at('03:59:59.999'), null, 0.25, 50, ['prod'], 's1', [span('s1', null, null, at('03:59:59.999'))]),
      trace('F', 'checkout', 'COMPLETED', at('04:00:00.000'), at('04:00:10.000'), 100, 1000, ['prod'], 's1', []),
      trace('G', 'checkout', 'COMPLETED', '2026-02-28T23:59:59.999Z', at('00:00:04.999'), 100, 1000, ['prod'], 's1', []),
    ],
  };
}
