// TRACE_STATS: run returns counts by status, total cost and tokens, average duration,
// optionally for one session and a startedAt window (from/to, inclusive).
import 'server-only';
import { traceStats, type TraceStatsParams } from '@/lib/features/traces';
import { fld, resultElement } from '@/lib/transports/soap/codec';
import type { FieldDef } from '@/lib/transports/soap/fields';
import type { PublicObject } from '@/lib/transports/soap/registry';
import { description } from './describe';

const PARAMS: FieldDef[] = [
  { name: 'sessionId', type: 'Char' },
  { name: 'from', type: 'DateTime' },
  { name: 'to', type: 'DateTime' },
];

const OUTPUT: FieldDef[] = [
  'traceCount',
  'runningCount',
  'completedCount',
  'errorCount',
  'totalCost',
  'totalTokens',
  'avgDuration',
].map((name) => ({ name, type: 'Decimal' as const, readOnly: true }));

export const traceStatsObject: PublicObject = {
  name: 'TRACE_STATS',
  describe() {
    return description('TRACE_STATS', [
      { tag: 'GRP', name: 'PARAM', fields: PARAMS },
      { tag: 'GRP', name: 'TRACE_STATS', fields: OUTPUT },
    ]);
  },
  async run(ctx, params) {
    const input: TraceStatsParams = {};
    for (const [name, param] of params) {
      const value = param.kind === 'FLD' ? param.value : null;
      if (name !== 'sessionId' && name !== 'from' && name !== 'to') {
        ctx.warn(`Unknown parameter "${name}" for TRACE_STATS ignored`);
      } else if (value !== null && value.trim() !== '') {
        input[name] = name === 'sessionId' ? value : value.trim();
      }
    }
    const stats = await ctx.withContext((service) => traceStats(service, input));
    // The aggregate scans the matching traces.
    ctx.meter.recordsRead += stats.traceCount;
    return {
      xml: resultElement([
        {
          kind: 'GRP',
          id: 'TRACE_STATS',
          fields: OUTPUT.map((f) => fld.decimal(f.name, stats[f.name as keyof typeof stats])),
        },
      ]),
      json: stats,
    };
  },
};
