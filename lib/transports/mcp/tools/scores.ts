// add_score: a judgment on a trace, one of its spans or one of its decisions (needs ingest
// for a key, as POST /api/scores does: the verb checks the annotate scope).
import 'server-only';
import * as z from 'zod';
import type { ServiceContext } from '@/lib/core/context';
import { saveScore, validateScore } from '@/lib/features/scores';
import { defineTool, type ToolRegistry } from './define';

export function registerScoreTools(tools: ToolRegistry, ctx: ServiceContext): void {
  defineTool(tools, 'add_score', {
    title: 'Add a score',
    description:
      'Score a trace, a span (spanId) or a decision (decisionPointId): a number, a boolean or a category. "decision.correct" (boolean) on a decision says whether its choice was right. Needs a key with the ingest scope.',
    input: {
      traceId: z.string(),
      spanId: z.string().optional(),
      decisionPointId: z.string().optional(),
      name: z.string(),
      value: z.union([z.number(), z.boolean(), z.string()]),
      comment: z.string().optional(),
    },
    output: {
      score: z.object({
        id: z.string(),
        traceId: z.string().nullable(),
        spanId: z.string().nullable(),
        decisionPointId: z.string().nullable(),
        name: z.string(),
        value: z.union([z.number(), z.boolean(), z.string()]),
        dataType: z.string(),
      }),
    },
    readOnly: false,
    async run(args) {
      // The JSON API's validator, so names, values and targets are checked with its messages.
      const input = validateScore(
        {
          traceId: args.traceId,
          ...(args.spanId !== undefined && { spanId: args.spanId }),
          ...(args.decisionPointId !== undefined && { decisionPointId: args.decisionPointId }),
          name: args.name,
          value: args.value,
          ...(args.comment !== undefined && { comment: args.comment }),
        },
        'arguments',
      );
      const s = await saveScore(ctx, input);
      const target = s.decisionPointId ? `decision ${s.decisionPointId} of trace ${s.traceId}` : s.spanId ? `span ${s.spanId} of trace ${s.traceId}` : `trace ${s.traceId}`;
      return {
        text: `Saved score ${s.id}: ${s.name} = ${JSON.stringify(s.value)} (${s.dataType}) on ${target}.`,
        structured: { score: { id: s.id, traceId: s.traceId, spanId: s.spanId, decisionPointId: s.decisionPointId, name: s.name, value: s.value, dataType: s.dataType } },
      };
    },
  });
}
