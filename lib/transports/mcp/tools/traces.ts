// search_traces, get_trace, get_span: the trace list, one trace read as a report, one span whole.
import 'server-only';
import * as z from 'zod';
import type { ServiceContext } from '@/lib/core/context';
import { optionLabel } from '@/lib/features/insights/shared';
import { comparePathOrder, pathOf } from '@/lib/features/paths/shared';
import { traceFiltersFromValues, type TraceFilterName } from '@/lib/features/query';
import { getSpanOrThrow, getTraceOutlineOrThrow, listTraces, traceErrorCounts } from '@/lib/features/traces';
import { buildTraceTree, flattenTree, RUN_STATUSES, spanModelOf, summaryModelOf, type SpanRecord, type SpanSummary } from '@/lib/features/traces/shared';
import { formatCost, formatDuration, formatTokens, pathLine, payloadText, plural } from '../text';
import { defineTool, type ToolRegistry } from './define';

/** Spans a report shows, in the text and in the structured answer (a model's context is the limit); get_span reads any. */
const TREE_LINES = 300;
/** Failed spans whose output a report shows (each is read on its own). */
const FAILED_PAYLOADS = 10;

const searchInput = {
  query: z.string().optional().describe('Full-text search over names, inputs, outputs, messages and metadata'),
  status: z.enum(RUN_STATUSES).optional(),
  name: z.string().optional().describe('The exact trace (agent) name'),
  sessionId: z.string().optional(),
  userId: z.string().optional(),
  tag: z.string().optional().describe('A tag the trace carries'),
  from: z.string().optional().describe('ISO 8601: traces that started at or after it'),
  to: z.string().optional().describe('ISO 8601: traces that started before it'),
  hasErrors: z.boolean().optional().describe('true: only traces where the trace, a span or an event failed'),
  limit: z.number().int().min(1).max(50).default(10),
};

const searchOutput = {
  traces: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      status: z.enum(RUN_STATUSES),
      startedAt: z.string(),
      durationMs: z.number().nullable(),
      costUsd: z.number().nullable(),
      tokens: z.number().nullable(),
      errorCount: z.number().describe('Failed spans plus ERROR events'),
    }),
  ),
  total: z.number(),
};

const spanShape = z.object({ id: z.string(), parentSpanId: z.string().nullable(), name: z.string(), type: z.string(), status: z.string(), durationMs: z.number().nullable() });
const decisionShape = z.object({ id: z.string(), type: z.string(), chosenLabel: z.string(), alternativeLabels: z.array(z.string()) });

const traceOutput = {
  trace: z.object({
    id: z.string(),
    name: z.string(),
    status: z.enum(RUN_STATUSES),
    startedAt: z.string(),
    endedAt: z.string().nullable(),
    durationMs: z.number().nullable(),
    costUsd: z.number().nullable(),
    tokens: z.number().nullable(),
    sessionId: z.string().nullable(),
    userId: z.string().nullable(),
    tags: z.array(z.string()),
    spanCount: z.number().describe('Spans in the trace; `spans` holds the first of the tree, at most 300'),
  }),
  spans: z.array(spanShape),
  decisionPoints: z.array(decisionShape),
};

type TraceStructured = z.infer<z.ZodObject<typeof traceOutput>>;

const spanDuration = (s: Pick<SpanSummary, 'durationMs' | 'startedAt' | 'endedAt'>): number | null =>
  s.durationMs ?? (s.endedAt ? Date.parse(s.endedAt) - Date.parse(s.startedAt) : null);

/** The trace as a report for a model (get_trace and the crossroads://traces/{id} resource). */
export async function traceReport(ctx: ServiceContext, traceId: string, maxPayloadChars: number): Promise<{ text: string; structured: TraceStructured }> {
  // The outline has no payloads: the root's and the first failed spans' are read alone.
  const trace = await getTraceOutlineOrThrow(ctx, traceId, 'columns');
  const root = trace.spans.find((s) => s.parentSpanId === null);
  const failedSpans = trace.spans.filter((s) => s.status === 'ERROR');
  const withPayloads = new Map(
    (await Promise.all([...(root ? [root] : []), ...failedSpans.slice(0, FAILED_PAYLOADS)].map((s) => getSpanOrThrow(ctx, trace.id, s.id)))).map((s) => [s.id, s]),
  );
  let anyCut = false;
  const payload = (value: SpanRecord['input']) => {
    const p = payloadText(value, maxPayloadChars);
    anyCut ||= p.cut;
    return p.text;
  };
  const lines: string[] = [];
  const duration = trace.totalDuration ?? (trace.endedAt ? Date.parse(trace.endedAt) - Date.parse(trace.startedAt) : null);
  lines.push(`Trace ${trace.id} "${trace.name}": ${trace.status}`);
  lines.push(
    `Started ${trace.startedAt}${trace.endedAt ? `, took ${formatDuration(duration)}` : ', still running'}; cost ${formatCost(trace.totalCost)}, ${formatTokens(trace.totalTokens)} tokens` +
      `${trace.sessionId ? `; session ${trace.sessionId}` : ''}${trace.userId ? `; user ${trace.userId}` : ''}${trace.tags.length ? `; tags ${trace.tags.join(', ')}` : ''}`,
  );
  const rootPayloads = root ? withPayloads.get(root.id) : undefined;
  if (rootPayloads) {
    lines.push(`Input: ${payload(rootPayloads.input)}`);
    lines.push(`Output: ${payload(rootPayloads.output)}`);
  }

  lines.push('', `Spans (${trace.spans.length}), as a tree: type name status duration [model] [cost] (id)`);
  const rows = flattenTree(buildTraceTree(trace.spans).roots, new Set());
  const shown: SpanSummary[] = [];
  for (const row of rows.slice(0, TREE_LINES)) {
    if (row.node.kind !== 'span') continue;
    const s = row.node.span;
    shown.push(s);
    const model = s.type === 'LLM_CALL' ? summaryModelOf(s) : null;
    const parts = [s.type, s.name, s.status, formatDuration(spanDuration(s))];
    if (model) parts.push(model);
    if (s.costUsd !== null) parts.push(formatCost(s.costUsd));
    lines.push(`${'  '.repeat(row.depth)}- ${parts.join(' ')} (${s.id})${s.status === 'ERROR' && s.statusMessage ? `: ${s.statusMessage}` : ''}`);
  }
  if (rows.length > TREE_LINES) lines.push(`… ${plural(rows.length - TREE_LINES, 'more span')}`);

  const starts = new Map(trace.spans.map((s) => [s.id, s.startedAt]));
  const ordered = trace.decisionPoints
    .map((d) => ({ ...d, parentStartedAt: d.parentSpanId ? (starts.get(d.parentSpanId) ?? null) : null }))
    .sort(comparePathOrder);
  const decisions = ordered.map((d) => ({ id: d.id, type: d.type, chosenLabel: optionLabel(d.chosen), alternativeLabels: d.alternatives.map((a) => optionLabel(a)) }));
  lines.push('', `Decision path: ${pathLine(pathOf(ordered))}`);
  if (decisions.length > 0) {
    lines.push(`Decisions (${decisions.length}), in order:`);
    ordered.forEach((d, i) => {
      const alternatives = decisions[i].alternativeLabels;
      lines.push(
        `- ${d.type} chose "${decisions[i].chosenLabel}"${alternatives.length ? ` over ${alternatives.map((a) => `"${a}"`).join(', ')}` : ''} (${d.id})` +
          `${d.reasoning ? `; reasoning: ${payload(d.reasoning)}` : ''}`,
      );
    });
  }

  const errorEvents = trace.events.filter((e) => e.type === 'ERROR');
  if (failedSpans.length + errorEvents.length > 0) {
    lines.push('', `Errors (${failedSpans.length + errorEvents.length}):`);
    for (const s of failedSpans) {
      // The outline cuts status messages short; a span read alone has its whole message.
      const read = withPayloads.get(s.id);
      const message = read ? read.statusMessage : s.statusMessage;
      lines.push(`- span ${s.name} (${s.id}) failed${message ? `: ${message}` : ''}${read ? `; output: ${payload(read.output)}` : ''}`);
    }
    for (const e of errorEvents) lines.push(`- event ${e.name} (${e.id})${e.spanId ? ` in span ${e.spanId}` : ''} at ${e.timestamp}${e.metadata !== null ? `: ${payload(e.metadata)}` : ''}`);
  }
  if (anyCut) lines.push('', `Payloads are cut at ${maxPayloadChars} characters; get_span {traceId, spanId} returns a span whole.`);

  return {
    text: lines.join('\n'),
    structured: {
      trace: {
        id: trace.id,
        name: trace.name,
        status: trace.status,
        startedAt: trace.startedAt,
        endedAt: trace.endedAt,
        durationMs: duration,
        costUsd: trace.totalCost,
        tokens: trace.totalTokens,
        sessionId: trace.sessionId,
        userId: trace.userId,
        tags: trace.tags,
        spanCount: trace.spans.length,
      },
      spans: shown.map((s) => ({ id: s.id, parentSpanId: s.parentSpanId, name: s.name, type: s.type, status: s.status, durationMs: spanDuration(s) })),
      decisionPoints: decisions,
    },
  };
}

const SEARCH_FILTERS: TraceFilterName[] = ['q', 'status', 'name', 'sessionId', 'userId', 'tag', 'from', 'to', 'hasErrors'];

export function registerTraceTools(tools: ToolRegistry, ctx: ServiceContext): void {
  defineTool(tools, 'search_traces', {
    title: 'Search traces',
    description: 'Find traces (agent runs), newest first, by text, status, name, session, user, tag, time window or errors. Answers ids for get_trace.',
    input: searchInput,
    output: searchOutput,
    readOnly: true,
    async run(args) {
      // The list's own parser, so a filter means here what it means in the viewer and the JSON API.
      const filters = traceFiltersFromValues(
        {
          q: args.query,
          status: args.status,
          name: args.name,
          sessionId: args.sessionId,
          userId: args.userId,
          tag: args.tag,
          from: args.from,
          to: args.to,
          hasErrors: args.hasErrors === undefined ? undefined : String(args.hasErrors),
        },
        SEARCH_FILTERS,
      );
      const list = await listTraces(ctx, { page: 1, limit: args.limit, ...filters });
      const errors = await traceErrorCounts(ctx, list.traces.map((t) => t.id));
      const traces = list.traces.map((t) => ({
        id: t.id,
        name: t.name,
        status: t.status,
        startedAt: t.startedAt,
        durationMs: t.totalDuration,
        costUsd: t.totalCost,
        tokens: t.totalTokens,
        errorCount: errors.get(t.id) ?? 0,
      }));
      const lines = [`${plural(list.total, 'trace')} match${list.total === 1 ? 'es' : ''}; the ${traces.length} newest:`];
      for (const t of traces) {
        lines.push(
          `- ${t.id} "${t.name}" ${t.status} started ${t.startedAt}, ${formatDuration(t.durationMs)}, ${formatCost(t.costUsd)}, ${formatTokens(t.tokens)} tokens` +
            `${t.errorCount ? `, ${plural(t.errorCount, 'error')}` : ''}`,
        );
      }
      if (traces.length > 0) lines.push('get_trace {traceId} reads one.');
      return { text: lines.join('\n'), structured: { traces, total: list.total } };
    },
  });

  defineTool(tools, 'get_trace', {
    title: 'Read a trace',
    description:
      'One trace: its summary, the span tree (type, name, status, duration, model, cost), its decisions with the chosen option and the alternatives, and its errors. Payloads are cut at maxPayloadChars.',
    input: {
      traceId: z.string(),
      maxPayloadChars: z.number().int().min(0).max(1_000_000).default(2000),
    },
    output: traceOutput,
    readOnly: true,
    run: (args) => traceReport(ctx, args.traceId, args.maxPayloadChars),
  });

  defineTool(tools, 'get_span', {
    title: 'Read a span',
    description: 'One span of a trace, every field, its input and output included (cut at maxPayloadChars).',
    input: {
      traceId: z.string(),
      spanId: z.string(),
      maxPayloadChars: z.number().int().min(0).max(10_000_000).default(20_000),
    },
    output: {
      span: z.object({
        id: z.string(),
        traceId: z.string(),
        parentSpanId: z.string().nullable(),
        name: z.string(),
        type: z.string(),
        status: z.string(),
        statusMessage: z.string().nullable(),
        startedAt: z.string(),
        endedAt: z.string().nullable(),
        durationMs: z.number().nullable(),
        model: z.string().nullable(),
        tokenCount: z.number().nullable(),
        costUsd: z.number().nullable(),
        costSource: z.string().nullable(),
        input: z.unknown(),
        output: z.unknown(),
        metadata: z.unknown(),
        cut: z.boolean().describe('Whether input, output or metadata were cut at maxPayloadChars (they are then text)'),
      }),
    },
    readOnly: true,
    async run(args) {
      const s = await getSpanOrThrow(ctx, args.traceId, args.spanId);
      const input = payloadText(s.input, args.maxPayloadChars);
      const output = payloadText(s.output, args.maxPayloadChars);
      const metadata = payloadText(s.metadata, args.maxPayloadChars);
      const cut = input.cut || output.cut || metadata.cut;
      const model = spanModelOf(s);
      const lines = [
        `Span ${s.id} "${s.name}" of trace ${s.traceId}: ${s.type}, ${s.status}${s.statusMessage ? ` (${s.statusMessage})` : ''}`,
        `Parent: ${s.parentSpanId ?? 'none (a root span)'}; started ${s.startedAt}${s.endedAt ? `, ended ${s.endedAt}` : ''}; duration ${formatDuration(spanDuration(s))}`,
        `Model: ${model ?? 'none'}; tokens ${formatTokens(s.tokenCount)}; cost ${formatCost(s.costUsd)}${s.costSource ? ` (${s.costSource})` : ''}`,
        `Input: ${input.text}`,
        `Output: ${output.text}`,
        `Metadata: ${metadata.text}`,
      ];
      const value = (p: ReturnType<typeof payloadText>, whole: unknown) => (cut && p.cut ? p.text : whole);
      return {
        text: lines.join('\n'),
        structured: {
          span: {
            id: s.id,
            traceId: s.traceId,
            parentSpanId: s.parentSpanId,
            name: s.name,
            type: s.type,
            status: s.status,
            statusMessage: s.statusMessage,
            startedAt: s.startedAt,
            endedAt: s.endedAt,
            durationMs: spanDuration(s),
            model,
            tokenCount: s.tokenCount,
            costUsd: s.costUsd,
            costSource: s.costSource,
            input: value(input, s.input),
            output: value(output, s.output),
            metadata: value(metadata, s.metadata),
            cut,
          },
        },
      };
    },
  });
}
