// list_sessions, get_session: the traces that share a sessionId, read as one conversation.
import 'server-only';
import * as z from 'zod';
import type { ServiceContext } from '@/lib/core/context';
import { traceFiltersFromValues } from '@/lib/features/query';
import { getSessionOrThrow, listSessions } from '@/lib/features/sessions';
import { RUN_STATUSES } from '@/lib/features/traces/shared';
import { formatCost, formatTokens, payloadText, plural } from '../text';
import { defineTool, type ToolRegistry } from './define';

/** Each turn's input and output in get_session's text, at most this long. */
const TURN_CHARS = 500;

export function registerSessionTools(tools: ToolRegistry, ctx: ServiceContext): void {
  defineTool(tools, 'list_sessions', {
    title: 'List sessions',
    description: 'Sessions (conversations: traces sharing a sessionId) by latest activity, optionally of one user or a window of their latest activity.',
    input: {
      userId: z.string().optional(),
      from: z.string().optional().describe('ISO 8601: latest activity at or after it'),
      to: z.string().optional().describe('ISO 8601: latest activity before it'),
      limit: z.number().int().min(1).max(50).default(10),
    },
    output: {
      sessions: z.array(
        z.object({
          id: z.string(),
          traces: z.number(),
          errorTraces: z.number(),
          firstStartedAt: z.string(),
          lastStartedAt: z.string(),
          userId: z.string().nullable(),
          costUsd: z.number().nullable(),
          tokens: z.number().nullable(),
        }),
      ),
      total: z.number(),
    },
    readOnly: true,
    async run(args) {
      const window = traceFiltersFromValues({ userId: args.userId, from: args.from, to: args.to }, ['userId', 'from', 'to']);
      const list = await listSessions(ctx, { page: 1, limit: args.limit, ...window });
      const sessions = list.sessions.map((s) => ({
        id: s.id,
        traces: s.traces,
        errorTraces: s.errorTraces,
        firstStartedAt: s.firstStartedAt,
        lastStartedAt: s.lastStartedAt,
        userId: s.userId ?? null,
        costUsd: s.totalCost,
        tokens: s.totalTokens,
      }));
      const lines = [`${plural(list.total, 'session')}; the ${sessions.length} most recently active:`];
      for (const s of sessions) {
        lines.push(
          `- ${s.id}: ${plural(s.traces, 'trace')}${s.errorTraces ? ` (${s.errorTraces} failed)` : ''}, ${s.firstStartedAt} to ${s.lastStartedAt}` +
            `${s.userId ? `, user ${s.userId}` : ''}, ${formatCost(s.costUsd)}, ${formatTokens(s.tokens)} tokens`,
        );
      }
      if (sessions.length > 0) lines.push('get_session {sessionId} reads one.');
      return { text: lines.join('\n'), structured: { sessions, total: list.total } };
    },
  });

  defineTool(tools, 'get_session', {
    title: 'Read a session',
    description: "A session's turns oldest first: each trace with what went in and what came out.",
    input: { sessionId: z.string() },
    output: {
      session: z.object({ id: z.string(), traces: z.number(), errorTraces: z.number(), costUsd: z.number().nullable(), tokens: z.number().nullable() }),
      turns: z.array(z.object({ traceId: z.string(), name: z.string(), status: z.enum(RUN_STATUSES), startedAt: z.string(), input: z.unknown(), output: z.unknown() })),
    },
    readOnly: true,
    async run(args) {
      const { session, traces } = await getSessionOrThrow(ctx, args.sessionId);
      const lines = [
        `Session ${session.id}: ${plural(session.traces, 'trace')}${session.errorTraces ? ` (${session.errorTraces} failed)` : ''}, ${formatCost(session.totalCost)}, ${formatTokens(session.totalTokens)} tokens. Turns, oldest first:`,
      ];
      traces.forEach((t, i) => {
        lines.push(`${i + 1}. ${t.id} "${t.name}" ${t.status} at ${t.startedAt}`);
        lines.push(`   in: ${payloadText(t.input, TURN_CHARS).text}`);
        lines.push(`   out: ${payloadText(t.output, TURN_CHARS).text}`);
      });
      return {
        text: lines.join('\n'),
        structured: {
          session: { id: session.id, traces: session.traces, errorTraces: session.errorTraces, costUsd: session.totalCost, tokens: session.totalTokens },
          turns: traces.map((t) => ({ traceId: t.id, name: t.name, status: t.status, startedAt: t.startedAt, input: t.input, output: t.output })),
        },
      };
    },
  });
}
