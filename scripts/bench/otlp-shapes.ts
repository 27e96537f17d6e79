// A generated agent run written the two ways the OTLP bench sends it: as OpenTelemetry
// spans (ReadableSpan, what an SDK hands its exporter) with GenAI or OpenInference
// attributes, and as the records POST /api/traces takes for the same run (the trace, its
// spans, the tool-selection decisions the OTLP mapper infers, the events).
import { SpanKind, SpanStatusCode, type Attributes, type HrTime } from '@opentelemetry/api';
import { resourceFromAttributes, type Resource } from '@opentelemetry/resources';
import type { ReadableSpan, TimedEvent } from '@opentelemetry/sdk-trace-base';
import type { JsonValue } from '@/lib/features/traces/shared';
import type { GenDecisionPoint, GenEvent, GenSpan, GenTrace } from './generate';
import { PROVIDERS, type AgentRun, type Convention, type LlmCall, type RunEvent, type RunSpan, type ToolExecution } from './otlp-runs';

// ---------- as OpenTelemetry spans ----------

function hr(ms: number): HrTime {
  return [Math.floor(ms / 1000), (ms % 1000) * 1e6];
}

function llmAttributes(convention: Convention, l: LlmCall): Attributes {
  if (convention === 'genai') {
    const parts: JsonValue[] = [{ type: 'text', content: l.text }];
    if (l.toolCall) parts.push({ type: 'tool_call', id: l.toolCall.id, name: l.toolCall.name, arguments: l.toolCall.arguments });
    const finish = l.toolCall ? 'tool_calls' : 'stop';
    return {
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': PROVIDERS[l.model],
      'gen_ai.request.model': l.model,
      'gen_ai.response.model': l.model,
      'gen_ai.usage.input_tokens': l.inputTokens,
      'gen_ai.usage.output_tokens': l.outputTokens,
      'gen_ai.response.finish_reasons': [finish],
      'gen_ai.input.messages': JSON.stringify([
        { role: 'system', parts: [{ type: 'text', content: l.system }] },
        { role: 'user', parts: [{ type: 'text', content: l.prompt }] },
      ]),
      'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', parts, finish_reason: finish }]),
      'gen_ai.tool.definitions': JSON.stringify(l.offered.map((t) => ({ type: 'function', name: t.name, description: t.description }))),
    };
  }
  const a: Attributes = {
    'openinference.span.kind': 'LLM',
    'llm.provider': PROVIDERS[l.model],
    'llm.model_name': l.model,
    'llm.input_messages.0.message.role': 'system',
    'llm.input_messages.0.message.content': l.system,
    'llm.input_messages.1.message.role': 'user',
    'llm.input_messages.1.message.content': l.prompt,
    'llm.output_messages.0.message.role': 'assistant',
    'llm.output_messages.0.message.content': l.text,
    'llm.token_count.prompt': l.inputTokens,
    'llm.token_count.completion': l.outputTokens,
    'llm.token_count.total': l.inputTokens + l.outputTokens,
  };
  l.offered.forEach((t, i) => {
    a[`llm.tools.${i}.tool.json_schema`] = JSON.stringify({ type: 'function', function: { name: t.name, description: t.description } });
  });
  if (l.toolCall) {
    a['llm.output_messages.0.message.tool_calls.0.tool_call.id'] = l.toolCall.id;
    a['llm.output_messages.0.message.tool_calls.0.tool_call.function.name'] = l.toolCall.name;
    a['llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments'] = JSON.stringify(l.toolCall.arguments);
  }
  return a;
}

function toolAttributes(convention: Convention, t: ToolExecution): Attributes {
  const result = t.result === null ? undefined : JSON.stringify(t.result);
  if (convention === 'genai') {
    return {
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': t.name,
      'gen_ai.tool.call.id': t.callId,
      'gen_ai.tool.type': 'function',
      'gen_ai.tool.call.arguments': JSON.stringify(t.arguments),
      ...(result === undefined ? {} : { 'gen_ai.tool.call.result': result }),
    };
  }
  return {
    'openinference.span.kind': 'TOOL',
    'tool.name': t.name,
    'input.value': JSON.stringify(t.arguments),
    'input.mime_type': 'application/json',
    ...(result === undefined ? {} : { 'output.value': result, 'output.mime_type': 'application/json' }),
  };
}

function rootAttributes(run: AgentRun): Attributes {
  if (run.convention === 'genai') {
    return {
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': run.agent,
      'gen_ai.conversation.id': run.sessionId,
      ...(run.tags.length ? { 'crossroads.tags': run.tags } : {}),
    };
  }
  return {
    'openinference.span.kind': 'AGENT',
    'session.id': run.sessionId,
    'input.value': run.task,
    'input.mime_type': 'text/plain',
    ...(run.tags.length ? { 'tag.tags': JSON.stringify(run.tags) } : {}),
  };
}

function spanName(run: AgentRun, s: RunSpan): string {
  const genai = run.convention === 'genai';
  if (s.type === 'AGENT') return genai ? `invoke_agent ${run.agent}` : run.agent;
  if (s.type === 'LLM_CALL') return genai ? `chat ${s.llm!.model}` : 'ChatCompletion';
  return genai ? `execute_tool ${s.tool!.name}` : s.tool!.name;
}

/** Shared per convention, as one SDK process shares one resource and one scope. */
export interface OtelSources {
  resource: Record<Convention, Resource>;
  scope: Record<Convention, { name: string; version: string }>;
}

export function otelSources(): OtelSources {
  const resource = (service: string) =>
    resourceFromAttributes({ 'service.name': service, 'service.version': '1.4.2', 'deployment.environment.name': 'production', 'telemetry.sdk.language': 'nodejs' });
  return {
    resource: { genai: resource('support-agents'), openinference: resource('research-agents') },
    scope: {
      genai: { name: '@opentelemetry/instrumentation-openai', version: '0.3.0' },
      openinference: { name: '@arizeai/openinference-instrumentation-openai', version: '2.3.1' },
    },
  };
}

/** The run's spans as the SDK would hand them to its exporter (children before parents: they end first). */
export function toReadableSpans(run: AgentRun, traceId: string, sources: OtelSources): ReadableSpan[] {
  const ctx = (spanId: string) => ({ traceId, spanId, traceFlags: 1, isRemote: false });
  const spans = run.spans.map((s): ReadableSpan => {
    const attributes = s.type === 'AGENT' ? rootAttributes(run) : s.type === 'LLM_CALL' ? llmAttributes(run.convention, s.llm!) : toolAttributes(run.convention, s.tool!);
    const events: TimedEvent[] = s.events.map((e) => ({ name: e.name, time: hr(e.atMs), attributes: e.attributes, droppedAttributesCount: 0 }));
    return {
      name: spanName(run, s),
      kind: s.type === 'LLM_CALL' ? SpanKind.CLIENT : SpanKind.INTERNAL,
      spanContext: () => ctx(s.id),
      parentSpanContext: s.parentId ? ctx(s.parentId) : undefined,
      startTime: hr(s.startMs),
      endTime: hr(s.endMs),
      duration: hr(s.endMs - s.startMs),
      status: s.error ? { code: SpanStatusCode.ERROR, message: s.error } : { code: SpanStatusCode.UNSET },
      attributes,
      links: [],
      events,
      ended: true,
      resource: sources.resource[run.convention],
      instrumentationScope: sources.scope[run.convention],
      droppedAttributesCount: 0,
      droppedEventsCount: 0,
      droppedLinksCount: 0,
    };
  });
  return [...spans.slice(1), spans[0]];
}

// ---------- as POST /api/traces records ----------

const iso = (ms: number) => new Date(ms).toISOString();

function eventRecord(run: AgentRun, s: RunSpan, e: RunEvent, k: number): GenEvent {
  const type = e.kind === 'exception' ? 'ERROR' : e.kind === 'retry' ? 'RETRY' : 'CUSTOM';
  return { id: `${s.id}-e${k}`, spanId: s.id, type, name: e.name, metadata: e.attributes, timestamp: iso(e.atMs) };
}

/** The same run as the records of one POST /api/traces trace, with the decisions the OTLP mapper infers made explicit. */
export function toGenTrace(run: AgentRun, traceId: string): GenTrace {
  const root = run.spans[0];
  const spans: GenSpan[] = [];
  const decisionPoints: GenDecisionPoint[] = [];
  const events: GenEvent[] = [];
  let tokens = 0;
  for (const s of run.spans) {
    let input: JsonValue = null;
    let output: JsonValue = null;
    let metadata: JsonValue = {};
    let tokenCount = 0;
    if (s.llm) {
      const l = s.llm;
      // The shapes the OTLP mapper stores (the messages and the tools offered as input), so both paths store the same payloads.
      input = {
        messages: [{ role: 'system', content: l.system }, { role: 'user', content: l.prompt }],
        tools: l.offered.map((t) => ({ type: 'function', function: { name: t.name, description: t.description } })),
      };
      output = [{ role: 'assistant', content: l.text, ...(l.toolCall ? { toolCalls: [l.toolCall] } : {}) }];
      metadata = { model: l.model, provider: PROVIDERS[l.model] };
      tokenCount = l.inputTokens + l.outputTokens;
      tokens += tokenCount;
      if (l.toolCall) {
        decisionPoints.push({
          id: s.id,
          type: 'TOOL_SELECTION',
          reasoning: l.text,
          chosen: { name: l.toolCall.name, arguments: l.toolCall.arguments },
          alternatives: l.offered.filter((t) => t.name !== l.toolCall!.name).map((t) => t.name),
          contextSnapshot: null,
          durationMs: 0,
          costUsd: 0,
          parentSpanId: s.id,
          timestamp: iso(s.endMs),
        });
      }
    } else if (s.tool) {
      input = s.tool.arguments;
      output = s.tool.result;
      metadata = { callId: s.tool.callId };
    } else {
      input = run.task;
      metadata = { agent: run.agent };
    }
    spans.push({
      id: s.id,
      parentSpanId: s.parentId,
      name: s.tool ? s.tool.name : spanName(run, s),
      type: s.type,
      input,
      output,
      tokenCount,
      costUsd: 0,
      durationMs: s.endMs - s.startMs,
      status: s.error ? 'ERROR' : 'COMPLETED',
      statusMessage: s.error,
      startedAt: iso(s.startMs),
      endedAt: iso(s.endMs),
      metadata,
    });
    s.events.forEach((e, k) => events.push(eventRecord(run, s, e, k)));
  }
  return {
    id: traceId,
    name: run.agent,
    sessionId: run.sessionId,
    status: root.error ? 'ERROR' : 'COMPLETED',
    tags: run.tags,
    metadata: { 'service.name': run.convention === 'genai' ? 'support-agents' : 'research-agents', task: run.task },
    totalCost: 0,
    totalTokens: tokens,
    totalDuration: root.endMs - root.startMs,
    startedAt: iso(root.startMs),
    endedAt: iso(root.endMs),
    decisionPoints,
    spans,
    events,
  };
}

/** What one run stores, whichever way it is sent. */
export function runRecords(run: AgentRun): { spans: number; decisions: number; events: number } {
  return {
    spans: run.spans.length,
    decisions: run.spans.filter((s) => s.llm?.toolCall).length,
    events: run.spans.reduce((n, s) => n + s.events.length, 0),
  };
}
